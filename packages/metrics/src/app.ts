import { type AppName, observeHttp, portOf } from "./http.js";
import { serveMetrics } from "./server.js";

export interface AppMetricsOptions {
  host: string;
  /** METRICS_PORT; undefined = no listener, nothing counted. */
  port: number | undefined;
  /** The app's HTTP URL once listening (its requests are counted by route pattern). */
  httpUrl: string;
  logger?: { warn(obj: object, message: string): void };
}

export interface AppMetrics {
  url: string | undefined;
  stop(): Promise<void>;
}

/**
 * A control-plane app's metrics in its production entry: /metrics on METRICS_PORT and its HTTP
 * requests counted (all of them management routes). The edge observes its own (startEdge).
 */
export async function startAppMetrics(app: AppName, options: AppMetricsOptions): Promise<AppMetrics> {
  if (options.port === undefined) return { url: undefined, stop: async () => {} };
  const listener = await serveMetrics(options.host, options.port, options.logger);
  const unobserve = observeHttp(portOf(options.httpUrl), { app, surface: () => "management" });
  return {
    url: listener.url,
    stop: async () => {
      unobserve();
      await listener.close();
    },
  };
}
