import * as grpc from "@grpc/grpc-js";
import { BatchServiceService } from "@gw/proto/generations/v1/batches";
import { GenerationServiceService } from "@gw/proto/generations/v1/generations";
import type { GenerationsDeps } from "./deps.js";
import { batchService } from "./rpc/batch-service.js";
import { generationService } from "./rpc/generation-service.js";

/** GenerationService and BatchService, added but not bound. */
export function createGrpcServer(deps: GenerationsDeps): grpc.Server {
  const server = new grpc.Server();
  server.addService(GenerationServiceService, generationService(deps.database.db, deps.logger));
  server.addService(BatchServiceService, batchService(deps.database.db, deps.logger));
  return server;
}
