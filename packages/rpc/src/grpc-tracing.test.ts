import * as grpc from "@grpc/grpc-js";
import { inSpan, installMemoryTracing, SpanKind } from "@gw/telemetry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insecureCredentials } from "./client.js";
import { bindGrpcServer, shutdownGrpcServer } from "./server.js";
import { clientOptions, createAuthenticatedServer, serviceAuth } from "./service-auth.js";
import {
  generateServiceKeys,
  parseServicePrivateKey,
  parseServicePublicKeys,
  publicKeyList,
} from "./service-keys.js";

const identity = (value: Buffer) => value;
const PATH = "/test.tracing.Echo/Call";
const definition: grpc.ServiceDefinition = {
  call: {
    path: PATH,
    requestStream: false,
    responseStream: false,
    requestSerialize: identity,
    requestDeserialize: identity,
    responseSerialize: identity,
    responseDeserialize: identity,
  },
};
type EchoClient = grpc.Client & {
  call(request: Buffer, callback: (error: grpc.ServiceError | null, reply?: Buffer) => void): void;
};

// One tracer provider per process (the API registers its globals once): both suites share it.
const tracing = installMemoryTracing("rpc-test");
afterAll(() => tracing.shutdown());

describe("gRPC tracing interceptors (a real server and client)", () => {
  let server: grpc.Server;
  let client: EchoClient;
  const seenTraceparents: string[] = [];

  beforeAll(async () => {
    server = createAuthenticatedServer(undefined);
    server.addService(definition, {
      call: (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
        seenTraceparents.push(String(call.metadata.get("traceparent")[0] ?? ""));
        if (call.request.toString() === "fail") callback({ code: grpc.status.NOT_FOUND, details: "no" });
        else callback(null, call.request);
      },
    });
    const port = await bindGrpcServer(server, "127.0.0.1", 0);
    const Client = grpc.makeGenericClientConstructor(definition, "Echo");
    client = new Client(
      `127.0.0.1:${port}`,
      insecureCredentials(),
      clientOptions(undefined, "keys"),
    ) as unknown as EchoClient;
  });
  afterAll(async () => {
    client.close();
    await shutdownGrpcServer(server);
  });

  const call = (body: string) =>
    new Promise<{ error: grpc.ServiceError | null; reply?: Buffer }>((resolve) =>
      client.call(Buffer.from(body), (error, reply) => resolve({ error, reply })),
    );

  it("joins the caller's trace: client span under the caller's, server span under the client's", async () => {
    const { result, traceId, parentId } = await inSpan(
      "caller",
      { kind: SpanKind.INTERNAL },
      async (span) => ({
        result: await call("hello"),
        traceId: span.spanContext().traceId,
        parentId: span.spanContext().spanId,
      }),
    );
    expect(result.reply?.toString()).toBe("hello");
    const spans = tracing.spans().filter((span) => span.name === PATH.slice(1));
    const clientSpan = spans.find((span) => span.kind === SpanKind.CLIENT);
    const serverSpan = spans.find((span) => span.kind === SpanKind.SERVER);
    expect(clientSpan?.spanContext().traceId).toBe(traceId);
    expect(clientSpan?.parentSpanContext?.spanId).toBe(parentId);
    expect(serverSpan?.spanContext().traceId).toBe(traceId);
    expect(serverSpan?.parentSpanContext?.spanId).toBe(clientSpan?.spanContext().spanId);
    expect(seenTraceparents.at(-1)).toBe(`00-${traceId}-${clientSpan?.spanContext().spanId}-01`);
  });

  it("marks both spans failed with the call's status, and the call still fails normally", async () => {
    const before = tracing.spans().length;
    const result = await call("fail");
    expect(result.error?.code).toBe(grpc.status.NOT_FOUND);
    const spans = tracing.spans().slice(before);
    expect(
      spans.map((span) => [span.kind, span.status.code, span.attributes["rpc.grpc.status_code"]]),
    ).toEqual(
      expect.arrayContaining([
        [SpanKind.SERVER, 2, grpc.status.NOT_FOUND],
        [SpanKind.CLIENT, 2, grpc.status.NOT_FOUND],
      ]),
    );
  });
});

describe("gRPC tracing interceptors beside service auth", () => {
  const keys = generateServiceKeys();
  const publicKeys = parseServicePublicKeys(publicKeyList(keys));
  const authOf = (name: "edge" | "billing" | "keys") =>
    serviceAuth(name, parseServicePrivateKey(keys[name].privateKey), publicKeys);
  let server: grpc.Server;
  let port: number;

  beforeAll(async () => {
    server = createAuthenticatedServer({
      verifier: authOf("keys").verifier,
      policy: new Map([[PATH, new Set(["edge" as const])]]),
    });
    server.addService(definition, {
      call: (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) =>
        callback(null, call.request),
    });
    port = await bindGrpcServer(server, "127.0.0.1", 0);
  });
  afterAll(async () => {
    await shutdownGrpcServer(server);
  });

  const callAs = (name: "edge" | "billing") => {
    const Client = grpc.makeGenericClientConstructor(definition, "Echo");
    const client = new Client(
      `127.0.0.1:${port}`,
      insecureCredentials(),
      clientOptions(authOf(name).issuer, "keys"),
    ) as unknown as EchoClient;
    return new Promise<grpc.ServiceError | null>((resolve) =>
      client.call(Buffer.from("x"), (error) => {
        client.close();
        resolve(error);
      }),
    );
  };

  it("an admitted caller's call succeeds and is traced; a refused one is refused and its spans failed", async () => {
    const before = tracing.spans().length;
    expect(await callAs("edge")).toBeNull();
    expect((await callAs("billing"))?.code).toBe(grpc.status.PERMISSION_DENIED);
    const codes = tracing
      .spans()
      .slice(before)
      .map((span) => [span.kind, span.attributes["rpc.grpc.status_code"]]);
    expect(codes).toEqual([
      [SpanKind.SERVER, grpc.status.OK],
      [SpanKind.CLIENT, grpc.status.OK],
      [SpanKind.SERVER, grpc.status.PERMISSION_DENIED],
      [SpanKind.CLIENT, grpc.status.PERMISSION_DENIED],
    ]);
  });
});
