import type { Database } from "@gw/db";
import type { GenerationsTables } from "./schema.js";

export { migrations } from "./migrations/index.js";
export type * from "./schema.js";

export const SCHEMA = "generations";

export type GenerationsDatabase = Database<GenerationsTables>;
