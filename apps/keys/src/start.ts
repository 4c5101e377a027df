import { listen } from "@gw/http";
import { bindGrpcServer, shutdownGrpcServer } from "@gw/rpc";
import { createApp } from "./app.js";
import { bundledCatalog } from "./catalog/content.js";
import { readOperatorPrices, withOperatorPrices } from "./catalog/operator-prices.js";
import { seedCatalog } from "./catalog/seed.js";
import { type KeysDeps, keysContext } from "./deps.js";
import { createGrpcServer } from "./grpc.js";

export interface ListenOptions {
  host: string;
  /** 0 picks a free port. */
  httpPort: number;
  grpcPort: number;
}

export interface RunningKeys {
  httpUrl: string;
  grpcAddress: string;
  /** Closes the servers gracefully; the deps (database, bus) stay open: the caller owns them. */
  stop(): Promise<void>;
}

/** Seeds the catalogue (with the operator's prices: gw catalog price), then serves REST and gRPC. */
export async function startKeys(deps: KeysDeps, options: ListenOptions): Promise<RunningKeys> {
  const operatorPrices = await readOperatorPrices(deps.database.db);
  const content = withOperatorPrices(deps.catalog ?? bundledCatalog(), operatorPrices);
  const seeded = await seedCatalog(deps.database.db, content);
  deps.logger.info(seeded, seeded.changed ? "catalogue seeded" : "catalogue already current");
  const context = keysContext(deps);
  const http = await listen(createApp(deps, context), options.host, options.httpPort);
  const grpcServer = createGrpcServer(deps, context);
  let grpcPort: number;
  try {
    grpcPort = await bindGrpcServer(grpcServer, options.host, options.grpcPort);
  } catch (error) {
    await http.close();
    throw error;
  }
  const grpcAddress = `${loopbackFor(options.host)}:${grpcPort}`;
  deps.logger.info({ httpUrl: http.url, grpcAddress }, "keys app listening");
  return {
    httpUrl: http.url,
    grpcAddress,
    // The bus is the caller's: its close() delivers (or spools) what was published, with a bound that
    // flush() on a dead broker would not have.
    stop: () => Promise.all([http.close(), shutdownGrpcServer(grpcServer)]).then(() => undefined),
  };
}

function loopbackFor(host: string): string {
  return host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
}
