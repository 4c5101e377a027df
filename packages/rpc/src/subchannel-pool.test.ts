import * as grpc from "@grpc/grpc-js";
import {
  type BatchRef,
  type BatchResponse,
  BatchServiceClient,
  BatchServiceService,
} from "@gw/proto/generations/v1/batches";
import { afterAll, describe, expect, it } from "vitest";
import { CHANNEL_OPTIONS } from "./client.js";
import { bindGrpcServer, shutdownGrpcServer } from "./server.js";
import { connectClient } from "./typed-client.js";

// In one process (the embedded default) one app's client can poll another app before it listens. A
// client created after it started listening must not inherit the first one's reconnect backoff.

const unimplemented: grpc.handleUnaryCall<unknown, unknown> = (_call, callback) =>
  callback({ code: grpc.status.UNIMPLEMENTED, details: "not in this test" });

function batchServer(): grpc.Server {
  const server = new grpc.Server();
  server.addService(BatchServiceService, {
    create: unimplemented,
    cancel: unimplemented,
    delete: unimplemented,
    claim: unimplemented,
    complete: unimplemented,
    list: unimplemented,
    results: unimplemented,
    get: (call: grpc.ServerUnaryCall<BatchRef, BatchResponse>, callback: grpc.sendUnaryData<BatchResponse>) =>
      callback({ code: grpc.status.NOT_FOUND, details: `no batch ${call.request.id}` }),
  });
  return server;
}

/** A port that was free a moment ago: nothing listens on it until the test binds it. */
async function freePort(): Promise<number> {
  const probe = new grpc.Server();
  const port = await bindGrpcServer(probe, "127.0.0.1", 0);
  await shutdownGrpcServer(probe);
  return port;
}

describe("the channels' subchannel pool", () => {
  const closers: (() => void)[] = [];
  let server: grpc.Server | undefined;
  afterAll(async () => {
    for (const close of closers) close();
    if (server) await shutdownGrpcServer(server);
  });

  it("keeps one client's reconnect backoff from failing a newer client's first call", async () => {
    expect(CHANNEL_OPTIONS["grpc.use_local_subchannel_pool"]).toBe(1);
    const port = await freePort();
    const address = `127.0.0.1:${port}`;
    const early = connectClient(BatchServiceClient, address, {
      audience: "generations",
      issuer: undefined,
      timeoutMs: 2_000,
    });
    closers.push(early.close);
    // The early client fails against nothing, again and again: its backoff grows toward 2 s.
    for (let attempt = 0; attempt < 5; attempt++) {
      await expect(early.get({ id: "x", accountId: "a" }, { timeoutMs: 300 })).rejects.toMatchObject({
        code: expect.any(Number),
      });
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    server = batchServer();
    await bindGrpcServer(server, "127.0.0.1", port);
    const late = connectClient(BatchServiceClient, address, {
      audience: "generations",
      issuer: undefined,
      timeoutMs: 2_000,
    });
    closers.push(late.close);
    // Its own channel connects now: the server's own answer (NOT_FOUND), not UNAVAILABLE.
    await expect(late.get({ id: "x", accountId: "a" }, { timeoutMs: 2_000 })).rejects.toMatchObject({
      code: grpc.status.NOT_FOUND,
    });
  });
});
