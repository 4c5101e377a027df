import { randomUUID } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { AdmitRequest, BillingServiceService } from "@gw/proto/billing/v1/billing";
import {
  clientOptions,
  generateServiceKeys,
  insecureCredentials,
  isGrpcError,
  parseServicePrivateKey,
  SERVICE_TOKEN_HEADER,
  type ServiceAuth,
  type ServiceName,
  ServiceTokenIssuer,
  serviceAuthSet,
} from "@gw/rpc";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addCredits } from "../operator/credits.js";
import { billingRpc, type Harness, startHarness, USD } from "../test/harness.js";

describeWith(["postgres", "redis"], "billing app: service-to-service authentication", () => {
  const keySet = generateServiceKeys();
  let auth: Record<ServiceName, ServiceAuth>;
  let harness: Harness;
  const account = `acct_${randomUUID()}`;
  const rpcs: Array<{ close(): void }> = [];

  beforeAll(async () => {
    auth = serviceAuthSet(keySet);
    harness = await startHarness({ serviceAuth: { app: auth.billing, rpcIssuer: auth.edge.issuer } });
    await addCredits(harness.db.database, { accountId: account, amountPico: USD, kind: "purchase" });
  });

  afterAll(async () => {
    for (const rpc of rpcs) rpc.close();
    await harness?.stop();
  });

  const as = (issuer?: ServiceTokenIssuer) => {
    const rpc = billingRpc(harness.running.grpcAddress, issuer);
    rpcs.push(rpc);
    return rpc;
  };

  async function codeOf(call: Promise<unknown>): Promise<grpc.status | "ok"> {
    try {
      await call;
      return "ok";
    } catch (error) {
      if (isGrpcError(error)) return error.code;
      throw error;
    }
  }

  const usage = { accountId: account, keyHash: "c".repeat(64) };
  const release = { accountId: account, holdId: "hold-that-does-not-exist" };

  describe("gRPC", () => {
    it("answers GetUsage to the edge and to keys, and refuses generations", async () => {
      expect((await as(auth.edge.issuer).getUsage(usage)).totalCreditsPico).toBe(USD);
      expect((await as(auth.keys.issuer).getUsage(usage)).totalCreditsPico).toBe(USD);
      expect(await codeOf(as(auth.generations.issuer).getUsage(usage))).toBe(grpc.status.PERMISSION_DENIED);
    });

    it("keeps admission and settlement to the edge", async () => {
      expect(await codeOf(harness.rpc.release(release))).toBe("ok");
      for (const caller of ["keys", "generations"] as const) {
        expect(await codeOf(as(auth[caller].issuer).release(release))).toBe(grpc.status.PERMISSION_DENIED);
        expect(
          await codeOf(
            as(auth[caller].issuer).admit(AdmitRequest.fromPartial({ accountId: account, holdId: "gen-x" })),
          ),
        ).toBe(grpc.status.PERMISSION_DENIED);
      }
    });

    // Who may call what, written out here (not read from BILLING_CALLERS): every method of the service,
    // each called by each service with an empty request. A refused caller gets PERMISSION_DENIED before
    // the handler runs; an allowed one gets past the policy (the empty request may still be refused).
    const ALLOWED: Record<keyof typeof BillingServiceService, readonly ServiceName[]> = {
      admit: ["edge"],
      settle: ["edge"],
      release: ["edge"],
      acquireLease: ["edge"],
      returnLease: ["edge"],
      creditPayment: ["edge"],
      recordUnsettledPayment: ["edge"],
      getUsage: ["edge", "keys"],
      grantCredits: ["keys"],
    };

    it("holds every method of BillingService to its callers, and refuses each without a token", async () => {
      const clients: grpc.Client[] = [];
      const codeAs = (issuer: ServiceTokenIssuer | undefined, method: keyof typeof BillingServiceService) => {
        const client = new grpc.Client(
          harness.running.grpcAddress,
          insecureCredentials(),
          clientOptions(issuer, "billing"),
        );
        clients.push(client);
        // Each method's own request type, read as the service's definition serialises it.
        const definition: {
          path: string;
          requestSerialize: (value: never) => Buffer;
          requestDeserialize: (value: Buffer) => unknown;
        } = BillingServiceService[method];
        const serialize = definition.requestSerialize as (value: unknown) => Buffer;
        return new Promise<grpc.status | "ok">((resolve) => {
          client.makeUnaryRequest(
            definition.path,
            serialize,
            (value: Buffer) => value,
            definition.requestDeserialize(Buffer.alloc(0)),
            (error) => resolve(error ? error.code : "ok"),
          );
        });
      };
      try {
        expect(Object.keys(ALLOWED).sort()).toEqual(Object.keys(BillingServiceService).sort());
        const seen: Record<string, Record<string, string>> = {};
        const want: Record<string, Record<string, string>> = {};
        for (const method of Object.keys(ALLOWED) as (keyof typeof BillingServiceService)[]) {
          seen[method] = {};
          want[method] = {};
          for (const caller of ["edge", "keys", "generations"] as const) {
            const code = await codeAs(auth[caller].issuer, method);
            seen[method][caller] = code === grpc.status.PERMISSION_DENIED ? "denied" : "passed";
            want[method][caller] = ALLOWED[method].includes(caller) ? "passed" : "denied";
            expect(code, `${method} as ${caller}`).not.toBe(grpc.status.UNAUTHENTICATED);
          }
          seen[method].none =
            (await codeAs(undefined, method)) === grpc.status.UNAUTHENTICATED ? "refused" : "let in";
          want[method].none = "refused";
        }
        expect(seen).toEqual(want);
      } finally {
        for (const client of clients) client.close();
      }
    });

    it("refuses a call without a token, with a forged signature, or expired", async () => {
      const forged = new ServiceTokenIssuer("edge", parseServicePrivateKey(keySet.keys.privateKey));
      const expired = new ServiceTokenIssuer("edge", parseServicePrivateKey(keySet.edge.privateKey), {
        now: () => Date.now() - 10 * 60_000,
      });
      for (const issuer of [undefined, forged, expired]) {
        expect(await codeOf(as(issuer).getUsage(usage))).toBe(grpc.status.UNAUTHENTICATED);
      }
    });
  });

  describe("REST", () => {
    const credits = (token?: string) =>
      fetch(`${harness.running.httpUrl}/api/v1/credits`, {
        headers: {
          authorization: `Bearer ${harness.keys.addKey(account, "management")}`,
          ...(token === undefined ? {} : { [SERVICE_TOKEN_HEADER]: token }),
        },
      });

    it("answers the edge's forwarded call and refuses anyone else", async () => {
      expect((await credits(await auth.edge.issuer.tokenFor("billing"))).status).toBe(200);
      const bare = await credits();
      expect(bare.status).toBe(401);
      expect(await bare.json()).toMatchObject({ error: { metadata: { reason: "service_token_invalid" } } });
      expect((await credits(await auth.edge.issuer.tokenFor("keys"))).status).toBe(401);
      expect((await credits(await auth.keys.issuer.tokenFor("billing"))).status).toBe(403);
    });
  });
});
