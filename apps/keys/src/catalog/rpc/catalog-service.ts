import type { Logger } from "@gw/logger";
import type { CatalogServiceServer } from "@gw/proto/catalog/v1/catalog";
import { unaryHandler } from "@gw/rpc";
import type { CatalogSnapshots } from "../snapshots.js";

export function catalogService(snapshots: CatalogSnapshots, logger: Logger): CatalogServiceServer {
  return {
    getSnapshot: unaryHandler((request) => snapshots.get(request.knownVersion), logger),
  };
}
