import { z } from "@gw/config";

/**
 * METRICS_PORT, read by every app: where GET /metrics is served (0 = any free port). Unset = no
 * metrics listener. It is a port of its own, never the app's HTTP port (the edge's is the tenants'),
 * so the operator decides who may reach it.
 */
export const metricsEnv = {
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
};
