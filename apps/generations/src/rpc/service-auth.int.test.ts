import * as grpc from "@grpc/grpc-js";
import { BatchServiceClient } from "@gw/proto/generations/v1/batches";
import { GenerationServiceClient } from "@gw/proto/generations/v1/generations";
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
  unaryCall,
} from "@gw/rpc";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GenerationsHarness, startGenerationsHarness } from "../test/harness.js";

describeWith(["postgres"], "generations app: service-to-service authentication", () => {
  const keySet = generateServiceKeys();
  let auth: Record<ServiceName, ServiceAuth>;
  let harness: GenerationsHarness;
  const clients: grpc.Client[] = [];

  beforeAll(async () => {
    auth = serviceAuthSet(keySet);
    harness = await startGenerationsHarness({ serviceAuth: auth.generations });
  });

  afterAll(async () => {
    for (const client of clients) client.close();
    await harness?.close();
  });

  function services(issuer?: ServiceTokenIssuer) {
    const options = clientOptions(issuer, "generations");
    const generations = new GenerationServiceClient(
      harness.running.grpcAddress,
      insecureCredentials(),
      options,
    );
    const batches = new BatchServiceClient(harness.running.grpcAddress, insecureCredentials(), options);
    clients.push(generations, batches);
    return {
      get: () => unaryCall(generations, generations.get)({ id: "gen-unknown", accountId: "acct_x" }),
      listBatches: () =>
        unaryCall(batches, batches.list)({ accountId: "acct_x", limit: 10, beforeId: "", afterId: "" }),
    };
  }

  async function codeOf(call: Promise<unknown>): Promise<grpc.status | "ok"> {
    try {
      await call;
      return "ok";
    } catch (error) {
      if (isGrpcError(error)) return error.code;
      throw error;
    }
  }

  it("answers the edge on both services", async () => {
    const edge = services(auth.edge.issuer);
    expect(await codeOf(edge.get())).toBe("ok");
    expect(await codeOf(edge.listBatches())).toBe("ok");
  });

  it("refuses every other app with PERMISSION_DENIED", async () => {
    for (const caller of ["keys", "billing", "generations"] as const) {
      const other = services(auth[caller].issuer);
      expect(await codeOf(other.get())).toBe(grpc.status.PERMISSION_DENIED);
      expect(await codeOf(other.listBatches())).toBe(grpc.status.PERMISSION_DENIED);
    }
  });

  it("refuses no token, a forged signature and an expired token with UNAUTHENTICATED", async () => {
    const forged = new ServiceTokenIssuer("edge", parseServicePrivateKey(keySet.billing.privateKey));
    const expired = new ServiceTokenIssuer("edge", parseServicePrivateKey(keySet.edge.privateKey), {
      now: () => Date.now() - 10 * 60_000,
    });
    for (const issuer of [undefined, forged, expired]) {
      expect(await codeOf(services(issuer).get())).toBe(grpc.status.UNAUTHENTICATED);
      expect(await codeOf(services(issuer).listBatches())).toBe(grpc.status.UNAUTHENTICATED);
    }
  });

  describe("REST", () => {
    const lookup = (token?: string) =>
      fetch(`${harness.running.httpUrl}/api/v1/generation?id=gen-x`, {
        headers: token === undefined ? {} : { [SERVICE_TOKEN_HEADER]: token },
      });

    it("lets the edge's forwarded call through to key authentication and refuses others first", async () => {
      // Past the service check, the route's own authentication answers (no API key was given).
      const forwarded = await lookup(await auth.edge.issuer.tokenFor("generations"));
      expect(forwarded.status).toBe(401);
      expect(await forwarded.json()).not.toMatchObject({
        error: { metadata: { reason: "service_token_invalid" } },
      });
      const bare = await lookup();
      expect(bare.status).toBe(401);
      expect(await bare.json()).toMatchObject({ error: { metadata: { reason: "service_token_invalid" } } });
      expect((await lookup(await auth.billing.issuer.tokenFor("generations"))).status).toBe(403);
    });
  });
});
