import * as grpc from "@grpc/grpc-js";
import {
  type Batch,
  type BatchRef,
  type BatchResponse,
  BatchServiceClient,
  BatchServiceService,
  type ListBatchesRequest,
  type ListBatchesResponse,
} from "@gw/proto/generations/v1/batches";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import type { CallOptions } from "./client.js";
import { bindGrpcServer, shutdownGrpcServer } from "./server.js";
import { serviceAuthSet } from "./service-auth.js";
import { SERVICE_TOKEN_HEADER } from "./service-tokens.js";
import { type ConnectedClient, connectClient } from "./typed-client.js";

const auth = serviceAuthSet();
const batch = (id: string): Batch => ({
  id,
  processingStatus: "in_progress",
  processing: 1,
  succeeded: 0,
  errored: 0,
  canceled: 0,
  expired: 0,
  createdAtMs: 0n,
  expiresAtMs: 0n,
  endedAtMs: 0n,
  cancelInitiatedAtMs: 0n,
});

/** What the server saw of each call: the caller named by a verified service token, and the deadline. */
interface Seen {
  caller: string | undefined;
  deadlineMs: number;
}

describe("connectClient (a generated client's methods as promises)", () => {
  let server: grpc.Server;
  let address: string;
  const seen: Seen[] = [];

  const record = async (call: grpc.ServerUnaryCall<unknown, unknown>): Promise<void> => {
    const token = call.metadata.get(SERVICE_TOKEN_HEADER)[0];
    const caller =
      typeof token === "string"
        ? await auth.generations.verifier.verify(token).catch(() => "refused")
        : undefined;
    const deadline = call.getDeadline();
    seen.push({ caller, deadlineMs: deadline instanceof Date ? deadline.getTime() : Number(deadline) });
  };

  beforeAll(async () => {
    server = new grpc.Server();
    const unimplemented: grpc.handleUnaryCall<unknown, unknown> = (_call, callback) =>
      callback({ code: grpc.status.UNIMPLEMENTED, details: "not in this test" });
    server.addService(BatchServiceService, {
      create: unimplemented,
      cancel: unimplemented,
      delete: unimplemented,
      claim: unimplemented,
      complete: unimplemented,
      get: (
        call: grpc.ServerUnaryCall<BatchRef, BatchResponse>,
        callback: grpc.sendUnaryData<BatchResponse>,
      ) => {
        void record(call).then(() => {
          if (call.request.id === "missing")
            callback({ code: grpc.status.NOT_FOUND, details: "no such batch" });
          else callback(null, { result: { $case: "batch", value: batch(call.request.id) } });
        });
      },
      // Answers after `limit` ms: long enough to outlast a short deadline.
      list: (
        call: grpc.ServerUnaryCall<ListBatchesRequest, ListBatchesResponse>,
        callback: grpc.sendUnaryData<ListBatchesResponse>,
      ) => {
        void record(call).then(() => {
          setTimeout(() => callback(null, { batches: [batch("b_1")], hasMore: false }), call.request.limit);
        });
      },
      results: (call: grpc.ServerUnaryCall<BatchRef, unknown>, callback: grpc.sendUnaryData<unknown>) => {
        void record(call).then(() => callback({ code: grpc.status.NOT_FOUND, details: "none" }));
      },
    });
    address = `127.0.0.1:${await bindGrpcServer(server, "127.0.0.1", 0)}`;
  });
  afterAll(async () => {
    await shutdownGrpcServer(server);
  });

  const connect = (options: Partial<Parameters<typeof connectClient<BatchServiceClient>>[2]> = {}) =>
    connectClient(BatchServiceClient, address, { audience: "generations", timeoutMs: 2_000, ...options });

  it("derives each method's request and response types from the generated client", () => {
    const client = connect();
    try {
      expectTypeOf(client.get).toEqualTypeOf<
        (request: BatchRef, options?: CallOptions) => Promise<BatchResponse>
      >();
      expectTypeOf(client.list).parameter(0).toEqualTypeOf<ListBatchesRequest>();
      expectTypeOf(client).toEqualTypeOf<ConnectedClient<BatchServiceClient>>();
      // grpc-js's own Client methods are not service methods.
      expectTypeOf(client).not.toHaveProperty("getChannel");
      expectTypeOf(client).not.toHaveProperty("makeUnaryRequest");
      // @ts-expect-error a BatchRef has no `limit`; the generated request type is enforced.
      void client.get({ id: "b", accountId: "a", limit: 1 }).catch(() => undefined);
    } finally {
      client.close();
    }
  });

  it("answers with the server's response and carries the caller's service token for the audience", async () => {
    const client = connect({ issuer: auth.edge.issuer });
    try {
      const answer = await client.get({ id: "b_42", accountId: "acct_typed" });
      expect(answer.result).toMatchObject({ $case: "batch", value: { id: "b_42" } });
      expect(seen.at(-1)?.caller).toBe("edge");
    } finally {
      client.close();
    }
  });

  it("sends no token without an issuer", async () => {
    const client = connect();
    try {
      await client.get({ id: "b_1", accountId: "acct_typed" });
      expect(seen.at(-1)?.caller).toBeUndefined();
    } finally {
      client.close();
    }
  });

  it("rejects with the server's gRPC status, unmapped", async () => {
    const client = connect();
    try {
      await expect(client.get({ id: "missing", accountId: "acct_typed" })).rejects.toMatchObject({
        code: grpc.status.NOT_FOUND,
        details: "no such batch",
      });
    } finally {
      client.close();
    }
  });

  it("puts the timeout on each call as its deadline: a slower answer is DEADLINE_EXCEEDED", async () => {
    const client = connect({ timeoutMs: 150 });
    try {
      const started = Date.now();
      await expect(
        client.list({ accountId: "acct_typed", limit: 1_000, beforeId: "", afterId: "" }),
      ).rejects.toMatchObject({ code: grpc.status.DEADLINE_EXCEEDED });
      expect(Date.now() - started).toBeLessThan(900);
      const deadline = seen.at(-1)?.deadlineMs ?? 0;
      expect(deadline - started).toBeGreaterThan(50);
      expect(deadline - started).toBeLessThanOrEqual(300);
      // Within the deadline the same method answers.
      const quick = await client.list({ accountId: "acct_typed", limit: 1, beforeId: "", afterId: "" });
      expect(quick.batches.map((one) => one.id)).toEqual(["b_1"]);
    } finally {
      client.close();
    }
  });

  it("gives a method named in `timeouts` its own deadline, and a call's own option wins", async () => {
    const client = connect({ timeoutMs: 150, timeouts: { list: 5_000 } });
    try {
      const started = Date.now();
      const slow = await client.list({ accountId: "acct_typed", limit: 400, beforeId: "", afterId: "" });
      expect(slow.hasMore).toBe(false);
      expect((seen.at(-1)?.deadlineMs ?? 0) - started).toBeGreaterThan(4_000);
      await expect(
        client.list({ accountId: "acct_typed", limit: 1_000, beforeId: "", afterId: "" }, { timeoutMs: 100 }),
      ).rejects.toMatchObject({ code: grpc.status.DEADLINE_EXCEEDED });
      // The other methods keep the default.
      await client.results({ id: "b_1", accountId: "acct_typed" }).catch(() => undefined);
      expect((seen.at(-1)?.deadlineMs ?? 0) - Date.now()).toBeLessThan(200);
    } finally {
      client.close();
    }
  });
});
