import type * as grpc from "@grpc/grpc-js";
import type { Logger } from "@gw/logger";
import { type CallerPolicy, createAuthenticatedServer, type ServiceAuth } from "@gw/rpc";

/** One gRPC service of an app: the generated definition and its handlers. */
export type GrpcService = readonly [grpc.ServiceDefinition, grpc.UntypedServiceImplementation];

/**
 * A control-plane app's gRPC server, its services added but not bound: every call is checked
 * against the app's caller policy when service auth is on.
 */
export function createControlPlaneGrpc(
  deps: { serviceAuth?: ServiceAuth | undefined; logger: Logger },
  policy: CallerPolicy,
  services: readonly GrpcService[],
): grpc.Server {
  const server = createAuthenticatedServer(
    deps.serviceAuth && { verifier: deps.serviceAuth.verifier, policy, logger: deps.logger },
  );
  for (const [definition, implementation] of services) server.addService(definition, implementation);
  return server;
}
