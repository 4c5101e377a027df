import * as grpc from "@grpc/grpc-js";
import { CatalogServiceService } from "@gw/proto/catalog/v1/catalog";
import { KeyServiceService } from "@gw/proto/keys/v1/keys";
import { type KeysContext, type KeysDeps, keysContext } from "./deps.js";
import { catalogService } from "./rpc/catalog-service.js";
import { keyService } from "./rpc/key-service.js";

/** KeyService and CatalogService, added but not bound. */
export function createGrpcServer(deps: KeysDeps, context: KeysContext = keysContext(deps)): grpc.Server {
  const server = new grpc.Server();
  server.addService(KeyServiceService, keyService(context.db, context.byok, deps.logger));
  server.addService(CatalogServiceService, catalogService(context.snapshots, deps.logger));
  return server;
}
