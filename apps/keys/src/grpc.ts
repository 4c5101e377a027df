import type * as grpc from "@grpc/grpc-js";
import { CatalogServiceService } from "@gw/proto/catalog/v1/catalog";
import { KeyServiceService } from "@gw/proto/keys/v1/keys";
import { callerPolicy, callersOf } from "@gw/rpc";
import { createControlPlaneGrpc } from "@gw/service";
import { catalogService } from "./catalog/rpc/catalog-service.js";
import { type KeysContext, type KeysDeps, keysContext } from "./deps.js";
import { keyService } from "./identity/rpc/key-service.js";

/**
 * Who may call what. Decrypted BYOK keys go to the edge alone; billing and generations authenticate
 * management and API keys on their own REST routes; generations reads the catalogue's endpoints (the
 * only ones its endpoint health keeps).
 */
export const KEYS_CALLERS = callerPolicy(
  callersOf(KeyServiceService, {
    authenticate: ["edge", "billing", "generations"],
    getProviderCredentials: ["edge"],
    ensureWalletAccount: ["edge"],
  }),
  callersOf(CatalogServiceService, { getSnapshot: ["edge", "generations"] }),
);

/** KeyService and CatalogService, added but not bound. */
export function createGrpcServer(deps: KeysDeps, context: KeysContext = keysContext(deps)): grpc.Server {
  return createControlPlaneGrpc(deps, KEYS_CALLERS, [
    [KeyServiceService, keyService(context.db, context.byok, deps.logger, context.walletAuth)],
    [CatalogServiceService, catalogService(context.snapshots, deps.logger)],
  ]);
}
