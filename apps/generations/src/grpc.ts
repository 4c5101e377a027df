import type * as grpc from "@grpc/grpc-js";
import { BatchServiceService } from "@gw/proto/generations/v1/batches";
import { GenerationServiceService } from "@gw/proto/generations/v1/generations";
import { EndpointHealthServiceService } from "@gw/proto/generations/v1/health";
import { callerPolicy, callersOf } from "@gw/rpc";
import { createControlPlaneGrpc } from "@gw/service";
import type { GenerationsDeps } from "./deps.js";
import type { HealthFigures } from "./health/aggregator.js";
import { batchService } from "./rpc/batch-service.js";
import { generationService } from "./rpc/generation-service.js";
import { endpointHealthService } from "./rpc/health-service.js";

/**
 * The edge reads generation records and runs batches; the edges and the keys app (its endpoints view)
 * read the measured endpoint health.
 */
export const GENERATIONS_CALLERS = callerPolicy(
  callersOf(GenerationServiceService, { get: ["edge"] }),
  callersOf(BatchServiceService, {
    create: ["edge"],
    get: ["edge"],
    list: ["edge"],
    cancel: ["edge"],
    delete: ["edge"],
    results: ["edge"],
    claim: ["edge"],
    complete: ["edge"],
  }),
  callersOf(EndpointHealthServiceService, { getEndpointHealth: ["edge", "keys"] }),
);

/** GenerationService, BatchService and EndpointHealthService, added but not bound. */
export function createGrpcServer(deps: GenerationsDeps, health: HealthFigures): grpc.Server {
  return createControlPlaneGrpc(deps, GENERATIONS_CALLERS, [
    [GenerationServiceService, generationService(deps.database.db, deps.logger)],
    [BatchServiceService, batchService(deps.database.db, deps.logger)],
    [EndpointHealthServiceService, endpointHealthService(health, deps.logger)],
  ]);
}
