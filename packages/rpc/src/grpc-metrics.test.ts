import * as grpc from "@grpc/grpc-js";
import { registry } from "@gw/metrics";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insecureCredentials } from "./client.js";
import { bindGrpcServer, shutdownGrpcServer } from "./server.js";
import { clientOptions, createAuthenticatedServer } from "./service-auth.js";

const identity = (value: Buffer) => value;
const PATH = "/test.metrics.Echo/Call";
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

async function count(name: string, code: string): Promise<number> {
  const metric = await registry.getSingleMetric(name)?.get();
  const sample = metric?.values.find(
    (value) =>
      (value as { metricName?: string }).metricName === `${name}_count` &&
      value.labels.method === PATH &&
      value.labels.code === code,
  );
  return sample?.value ?? 0;
}

describe("gRPC metrics interceptors", () => {
  let server: grpc.Server;
  type EchoClient = grpc.Client & {
    call(request: Buffer, callback: (error: grpc.ServiceError | null) => void): void;
  };
  let client: EchoClient;

  beforeAll(async () => {
    server = createAuthenticatedServer(undefined);
    server.addService(definition, {
      call: (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
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

  const call = (text: string) =>
    new Promise<grpc.ServiceError | null>((resolve) => {
      client.call(Buffer.from(text), (error: grpc.ServiceError | null) => resolve(error));
    });

  it("times each call on both sides by method and status, and still delivers the answer", async () => {
    const before = {
      serverOk: await count("gw_grpc_server_duration_seconds", "OK"),
      clientOk: await count("gw_grpc_client_duration_seconds", "OK"),
      serverMissing: await count("gw_grpc_server_duration_seconds", "NOT_FOUND"),
      clientMissing: await count("gw_grpc_client_duration_seconds", "NOT_FOUND"),
    };
    expect(await call("hello")).toBeNull();
    expect((await call("fail"))?.code).toBe(grpc.status.NOT_FOUND);
    expect(await count("gw_grpc_server_duration_seconds", "OK")).toBe(before.serverOk + 1);
    expect(await count("gw_grpc_client_duration_seconds", "OK")).toBe(before.clientOk + 1);
    expect(await count("gw_grpc_server_duration_seconds", "NOT_FOUND")).toBe(before.serverMissing + 1);
    expect(await count("gw_grpc_client_duration_seconds", "NOT_FOUND")).toBe(before.clientMissing + 1);
  });
});
