import { type ListenOptions, type RunningControlPlane, startControlPlane } from "@gw/service";
import { createApp } from "./app.js";
import { bundledCatalog } from "./catalog/content.js";
import { refreshCatalog } from "./catalog/store.js";
import { type KeysDeps, keysContext } from "./deps.js";
import { createGrpcServer } from "./grpc.js";
import { DEFAULT_ACCOUNT_LIFECYCLE } from "./identity/accounts/lifecycle.js";
import { startAccountSweep } from "./identity/accounts/sweep.js";
import { checkByokKeys } from "./identity/byok/rotation.js";
import { keysReadiness } from "./readiness.js";

export type { ListenOptions };
export type RunningKeys = RunningControlPlane;

/**
 * Seeds the catalogue (this release's bundled seed with every operator change laid over it), checks the
 * BYOK master keys against the stored keys (re-sealing in the background during a rotation), then serves
 * REST and gRPC.
 */
export async function startKeys(deps: KeysDeps, options: ListenOptions): Promise<RunningKeys> {
  const seeded = await refreshCatalog(deps.database.db, deps.catalog ?? bundledCatalog());
  deps.logger.info(seeded, seeded.changed ? "catalogue seeded" : "catalogue already current");
  const context = keysContext(deps);
  // Before any server listens: master keys that cannot open the stored BYOK keys stop the start here.
  const rotation = await checkByokKeys(deps.database.db, context.byok.cipher, deps.logger);
  const readiness = keysReadiness(deps);
  // The bus is the caller's: its close() delivers (or spools) what was published, with a bound that
  // flush() on a dead broker would not have.
  return startControlPlane(
    {
      name: "keys",
      logger: deps.logger,
      readiness,
      work: async (stops) => {
        // The endpoints view's figures, polled from generations in the background (never per request).
        context.health.start();
        stops.afterServers(context.health);
        // Removes wallet accounts that were never used (identity/accounts/sweep.ts), on every replica.
        const sweep = startAccountSweep(
          {
            db: deps.database.db,
            billing: deps.billing,
            publisher: deps.bus,
            keyChangesTopic: deps.topics.keyChanges,
            logger: deps.logger,
          },
          (deps.accounts ?? DEFAULT_ACCOUNT_LIFECYCLE).sweep,
        );
        if (sweep) stops.withServers(sweep);
        stops.beforeServers(rotation.start());
      },
      http: () => createApp(deps, context, readiness),
      grpc: () => createGrpcServer(deps, context),
    },
    options,
  );
}
