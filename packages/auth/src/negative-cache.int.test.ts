import * as grpc from "@grpc/grpc-js";
import { AuthFailureReason, KeyServiceService } from "@gw/proto/keys/v1/keys";
import { bindGrpcServer, shutdownGrpcServer, unaryHandler } from "@gw/rpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrincipalResolver } from "./resolver.js";

// A flood of bad keys must not become a flood of KeyService calls: malformed secrets never leave the
// edge, and an unknown well-formed key is asked about once per negative-cache period.
describe("negative caching over real gRPC", () => {
  let server: grpc.Server;
  let calls = 0;
  let connected: ReturnType<typeof PrincipalResolver.connect>;

  beforeAll(async () => {
    server = new grpc.Server();
    server.addService(KeyServiceService, {
      authenticate: unaryHandler(async () => {
        calls++;
        return {
          result: { $case: "failure", value: AuthFailureReason.AUTH_FAILURE_REASON_KEY_NOT_FOUND },
          cacheTtlMs: 0,
        };
      }),
    });
    const port = await bindGrpcServer(server, "127.0.0.1", 0);
    connected = PrincipalResolver.connect(`127.0.0.1:${port}`, { negativeTtlMs: 60_000 });
  });

  afterAll(async () => {
    connected?.close();
    await shutdownGrpcServer(server, 500);
  });

  it("asks once for 500 concurrent requests with the same unknown key", async () => {
    const secret = `lr_live_${"e".repeat(48)}`;
    const results = await Promise.allSettled(
      Array.from({ length: 500 }, () => connected.resolver.resolveSecret(secret)),
    );
    expect(results.every((result) => result.status === "rejected")).toBe(true);
    for (let i = 0; i < 100; i++) {
      await expect(connected.resolver.resolveSecret(secret)).rejects.toMatchObject({
        status: 401,
        code: "key_not_found",
      });
    }
    expect(calls).toBe(1);
  });

  it("never asks about secrets that are not shaped like our keys", async () => {
    const before = calls;
    for (let i = 0; i < 500; i++) {
      await expect(connected.resolver.resolveSecret(`sk-random-${i}`)).rejects.toMatchObject({ status: 401 });
    }
    expect(calls).toBe(before);
  });
});
