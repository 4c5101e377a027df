import type { EndpointHealthView } from "./endpoint-health.js";
import type { CatalogSnapshots } from "./snapshots.js";

/** What the catalogue module's routes and services share, built once per app (deps.ts). */
export interface CatalogContext {
  snapshots: CatalogSnapshots;
  /** Measured endpoint health (the generations app's figures, polled), for the endpoints view. */
  health: EndpointHealthView;
}
