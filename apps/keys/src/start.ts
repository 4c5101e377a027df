import { listen, type Readiness } from "@gw/http";
import { bindGrpcServer, shutdownGrpcServer } from "@gw/rpc";
import { createApp } from "./app.js";
import { bundledCatalog } from "./catalog/content.js";
import { refreshCatalog } from "./catalog/store.js";
import { type KeysDeps, keysContext } from "./deps.js";
import { createGrpcServer } from "./grpc.js";
import { keysReadiness } from "./readiness.js";

export interface ListenOptions {
  host: string;
  /** 0 picks a free port. */
  httpPort: number;
  grpcPort: number;
  /** How long a stop waits for requests under way before cutting them (SHUTDOWN_DEADLINE_MS). */
  shutdownDeadlineMs?: number;
}

export interface RunningKeys {
  httpUrl: string;
  grpcAddress: string;
  readiness: Readiness;
  /**
   * Readiness goes 503 first, then the servers close gracefully (requests under way get until the
   * shutdown deadline); the deps (database, bus) stay open: the caller owns them.
   */
  stop(): Promise<void>;
}

/**
 * Seeds the catalogue (this release's bundled seed with every operator change laid over it), then serves
 * REST and gRPC.
 */
export async function startKeys(deps: KeysDeps, options: ListenOptions): Promise<RunningKeys> {
  const seeded = await refreshCatalog(deps.database.db, deps.catalog ?? bundledCatalog());
  deps.logger.info(seeded, seeded.changed ? "catalogue seeded" : "catalogue already current");
  const context = keysContext(deps);
  // The endpoints view's figures, polled from generations in the background (never per request).
  context.health.start();
  const readiness = keysReadiness(deps);
  const http = await listen(createApp(deps, context, readiness), options.host, options.httpPort);
  const grpcServer = createGrpcServer(deps, context);
  let grpcPort: number;
  try {
    grpcPort = await bindGrpcServer(grpcServer, options.host, options.grpcPort);
  } catch (error) {
    await http.close();
    await context.health.stop();
    throw error;
  }
  const grpcAddress = `${loopbackFor(options.host)}:${grpcPort}`;
  deps.logger.info({ httpUrl: http.url, grpcAddress }, "keys app listening");
  return {
    httpUrl: http.url,
    grpcAddress,
    readiness,
    // The bus is the caller's: its close() delivers (or spools) what was published, with a bound that
    // flush() on a dead broker would not have.
    stop: async () => {
      readiness.drain();
      const deadlineMs = options.shutdownDeadlineMs;
      await Promise.all([http.close(deadlineMs), shutdownGrpcServer(grpcServer, deadlineMs)]);
      await context.health.stop();
    },
  };
}

function loopbackFor(host: string): string {
  return host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
}
