import * as grpc from "@grpc/grpc-js";
import { CatalogServiceClient } from "@gw/proto/catalog/v1/catalog";
import { KeyServiceClient } from "@gw/proto/keys/v1/keys";
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
import type { CreatedAccount } from "./identity/operator.js";
import { type KeysHarness, startKeysHarness } from "./test/harness.js";

describeWith(["postgres"], "keys app: service-to-service authentication", () => {
  const keySet = generateServiceKeys();
  let auth: Record<ServiceName, ServiceAuth>;
  let harness: KeysHarness;
  let owner: CreatedAccount;
  const clients: grpc.Client[] = [];

  beforeAll(async () => {
    auth = serviceAuthSet(keySet);
    harness = await startKeysHarness({ serviceAuth: auth.keys });
    owner = await harness.account();
  });

  afterAll(async () => {
    for (const client of clients) client.close();
    await harness?.close();
  });

  /** A KeyService client that signs as `issuer` (none: a bare client, as the probe used). */
  function keyService(issuer?: ServiceTokenIssuer) {
    const client = new KeyServiceClient(
      harness.running.grpcAddress,
      insecureCredentials(),
      clientOptions(issuer, "keys"),
    );
    clients.push(client);
    return {
      authenticate: unaryCall(client, client.authenticate),
      credentials: unaryCall(client, client.getProviderCredentials),
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

  const forgedEdge = () => new ServiceTokenIssuer("edge", parseServicePrivateKey(keySet.billing.privateKey));
  const expiredEdge = () =>
    new ServiceTokenIssuer("edge", parseServicePrivateKey(keySet.edge.privateKey), {
      now: () => Date.now() - 10 * 60_000,
    });

  describe("gRPC", () => {
    it("answers Authenticate to the edge, billing and generations", async () => {
      for (const caller of ["edge", "billing", "generations"] as const) {
        const answer = await keyService(auth[caller].issuer).authenticate({ keyHash: "0".repeat(64) });
        expect(answer.result?.$case).toBe("failure");
      }
    });

    it("refuses a call without a token, with a forged signature, expired or for another app", async () => {
      const request = { keyHash: "0".repeat(64) };
      expect(await codeOf(keyService().authenticate(request))).toBe(grpc.status.UNAUTHENTICATED);
      expect(await codeOf(keyService(forgedEdge()).authenticate(request))).toBe(grpc.status.UNAUTHENTICATED);
      expect(await codeOf(keyService(expiredEdge()).authenticate(request))).toBe(grpc.status.UNAUTHENTICATED);
      // A token the edge made for billing, replayed against keys.
      const replayed = new grpc.Metadata();
      replayed.set(SERVICE_TOKEN_HEADER, await auth.edge.issuer.tokenFor("billing"));
      const bare = new KeyServiceClient(harness.running.grpcAddress, insecureCredentials());
      clients.push(bare);
      const code = await new Promise<grpc.status>((resolve) => {
        bare.authenticate(request, replayed, (error) => resolve(error?.code ?? grpc.status.OK));
      });
      expect(code).toBe(grpc.status.UNAUTHENTICATED);
    });

    it("hands decrypted BYOK keys to the edge only", async () => {
      const request = { accountId: owner.accountId };
      expect(await codeOf(keyService(auth.edge.issuer).credentials(request))).toBe("ok");
      expect(await codeOf(keyService().credentials(request))).toBe(grpc.status.UNAUTHENTICATED);
      for (const caller of ["billing", "generations", "keys"] as const) {
        expect(await codeOf(keyService(auth[caller].issuer).credentials(request))).toBe(
          grpc.status.PERMISSION_DENIED,
        );
      }
    });

    it("serves the catalogue snapshot to the edge only", async () => {
      const snapshot = (issuer?: ServiceTokenIssuer) => {
        const client = new CatalogServiceClient(
          harness.running.grpcAddress,
          insecureCredentials(),
          clientOptions(issuer, "keys"),
        );
        clients.push(client);
        return codeOf(unaryCall(client, client.getSnapshot)({ knownVersion: "" }));
      };
      expect(await snapshot(auth.edge.issuer)).toBe("ok");
      expect(await snapshot()).toBe(grpc.status.UNAUTHENTICATED);
      expect(await snapshot(auth.billing.issuer)).toBe(grpc.status.PERMISSION_DENIED);
    });
  });

  describe("REST", () => {
    const get = async (path: string, token?: string) => {
      const headers: Record<string, string> = { authorization: `Bearer ${owner.managementKey}` };
      if (token !== undefined) headers[SERVICE_TOKEN_HEADER] = token;
      const response = await fetch(`${harness.running.httpUrl}${path}`, { headers });
      return {
        status: response.status,
        body: (await response.json()) as { error?: { code?: number; metadata?: { reason?: string } } },
      };
    };

    it("answers the edge's forwarded management call", async () => {
      expect((await get("/api/v1/keys", await auth.edge.issuer.tokenFor("keys"))).status).toBe(200);
    });

    it("answers 401 in the error envelope without a valid token, even with a valid management key", async () => {
      for (const token of [
        undefined,
        "garbage",
        await forgedEdge().tokenFor("keys"),
        await expiredEdge().tokenFor("keys"),
        await auth.edge.issuer.tokenFor("billing"),
      ]) {
        const answer = await get("/api/v1/keys", token);
        expect(answer.status).toBe(401);
        expect(answer.body.error).toMatchObject({
          type: "authentication_error",
          metadata: { reason: "service_token_invalid" },
        });
      }
    });

    it("answers 403 to another app's token and keeps /healthz open", async () => {
      const answer = await get("/api/v1/keys", await auth.billing.issuer.tokenFor("keys"));
      expect(answer.status).toBe(403);
      expect(answer.body.error).toMatchObject({ metadata: { reason: "service_not_allowed" } });
      expect((await fetch(`${harness.running.httpUrl}/healthz`)).status).toBe(200);
    });
  });
});
