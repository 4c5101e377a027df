import type { Logger } from "@gw/logger";
import type { EndpointHealthServiceServer } from "@gw/proto/generations/v1/health";
import { unaryHandler } from "@gw/rpc";
import type { HealthFigures } from "../health/aggregator.js";

/** EndpointHealthService: the figures held in memory (recomputed every second), never a query per poll. */
export function endpointHealthService(figures: HealthFigures, logger: Logger): EndpointHealthServiceServer {
  return {
    getEndpointHealth: unaryHandler(async (request) => figures.get(request.knownVersion), logger),
  };
}
