import * as grpc from "@grpc/grpc-js";
import { inSpan, installMemoryTracing, SpanKind } from "@gw/telemetry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insecureCredentials } from "./client.js";
import { bindGrpcServer, shutdownGrpcServer } from "./server.js";
import { clientOptions, createAuthenticatedServer } from "./service-auth.js";

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

describe("gRPC tracing interceptors (a real server and client)", () => {
  const tracing = installMemoryTracing("rpc-test");
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
    await tracing.shutdown();
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
