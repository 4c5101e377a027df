import * as grpc from "@grpc/grpc-js";
import {
  type BatchRef,
  type BatchResponse,
  BatchServiceClient,
  BatchServiceService,
} from "@gw/proto/generations/v1/batches";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerPolicy, callersOf } from "./grpc-service-auth.js";
import { bindGrpcServer, shutdownGrpcServer } from "./server.js";
import { clientOptions, createAuthenticatedServer, serviceAuthSet } from "./service-auth.js";
import { SERVICE_TOKEN_HEADER } from "./service-tokens.js";

// The server side of service authentication on a real gRPC server (generations' batch service):
// who may call which method, and what a missing, doubled or foreign token gets.
const auth = serviceAuthSet();
const answer = (
  call: grpc.ServerUnaryCall<BatchRef, BatchResponse>,
  callback: grpc.sendUnaryData<BatchResponse>,
) => callback({ code: grpc.status.NOT_FOUND, details: `reached ${call.request.id}` });

describe("serviceAuthInterceptor (who may call which method)", () => {
  let server: grpc.Server;
  let address: string;
  const warnings: { method: string; caller?: string; reason?: string; msg: string }[] = [];

  beforeAll(async () => {
    // `get`: the edge and keys; `results` is left out of the policy (nobody may call it); the rest: billing.
    const listed = callersOf(BatchServiceService, {
      create: ["billing"],
      cancel: ["billing"],
      delete: ["billing"],
      claim: ["billing"],
      complete: ["billing"],
      get: ["edge", "keys"],
      list: ["billing"],
      results: ["edge"],
    });
    const policy = callerPolicy(listed.filter(([path]) => !path.endsWith("/Results")));
    const logger = {
      warn: (fields: object, msg: string) => void warnings.push({ ...(fields as { method: string }), msg }),
    };
    server = createAuthenticatedServer({ verifier: auth.generations.verifier, policy, logger });
    server.addService(BatchServiceService, { get: answer, results: answer });
    address = `127.0.0.1:${await bindGrpcServer(server, "127.0.0.1", 0)}`;
  });
  afterAll(async () => {
    await shutdownGrpcServer(server);
  });

  /** The status a `get` (or `results`) call ends with, made by `caller` (its signed token) or with `metadata`. */
  async function statusOf(
    caller: keyof typeof auth | undefined,
    options: { method?: "get" | "results"; metadata?: grpc.Metadata; audience?: "generations" | "keys" } = {},
  ): Promise<{ code: number; details: string }> {
    const client = new BatchServiceClient(
      address,
      grpc.credentials.createInsecure(),
      clientOptions(caller ? auth[caller].issuer : undefined, options.audience ?? "generations"),
    );
    try {
      return await new Promise((resolve) => {
        const done = (error: grpc.ServiceError | null) =>
          resolve({ code: error?.code ?? grpc.status.OK, details: error?.details ?? "" });
        const metadata = options.metadata ?? new grpc.Metadata();
        // Both take a BatchRef.
        if (options.method === "results") client.results({ id: "b_1", accountId: "acct" }, metadata, done);
        else client.get({ id: "b_1", accountId: "acct" }, metadata, done);
      });
    } finally {
      client.close();
    }
  }

  it("lets a caller the method lists through, twice (the second time from the verifier's cache)", async () => {
    expect(await statusOf("edge")).toEqual({ code: grpc.status.NOT_FOUND, details: "reached b_1" });
    expect(await statusOf("edge")).toEqual({ code: grpc.status.NOT_FOUND, details: "reached b_1" });
    expect(await statusOf("keys")).toEqual({ code: grpc.status.NOT_FOUND, details: "reached b_1" });
  });

  it("refuses an app the method does not list, and everyone on a method missing from the policy", async () => {
    warnings.length = 0;
    expect(await statusOf("billing")).toEqual({
      code: grpc.status.PERMISSION_DENIED,
      details: "billing may not call /generations.v1.BatchService/Get",
    });
    // Twice: the second from the verifier's cache, refused all the same.
    expect((await statusOf("billing")).code).toBe(grpc.status.PERMISSION_DENIED);
    expect((await statusOf("edge", { method: "results" })).code).toBe(grpc.status.PERMISSION_DENIED);
    expect(warnings[0]).toEqual({
      method: "/generations.v1.BatchService/Get",
      caller: "billing",
      msg: "service call refused",
    });
  });

  it("refuses a call without a token, with two tokens, or with a token for another audience", async () => {
    warnings.length = 0;
    expect(await statusOf(undefined)).toEqual({
      code: grpc.status.UNAUTHENTICATED,
      details: "service token refused (missing)",
    });
    const token = await auth.edge.issuer.tokenFor("generations");
    const doubled = new grpc.Metadata();
    doubled.add(SERVICE_TOKEN_HEADER, token);
    doubled.add(SERVICE_TOKEN_HEADER, token);
    // (grpc-js may join the two into one value: refused as malformed then, never let through.)
    expect((await statusOf(undefined, { metadata: doubled })).code).toBe(grpc.status.UNAUTHENTICATED);
    const binary = new grpc.Metadata();
    binary.add(`${SERVICE_TOKEN_HEADER}-bin`, Buffer.from(token));
    expect((await statusOf(undefined, { metadata: binary })).code).toBe(grpc.status.UNAUTHENTICATED);
    const refused = await statusOf("edge", { audience: "keys" });
    expect(refused.code).toBe(grpc.status.UNAUTHENTICATED);
    expect(refused.details).toMatch(/^service token refused \((?!missing)/);
    expect(warnings.map((warning) => warning.reason)).toContain("missing");
  });
});
