import type { Database } from "@gw/db";
import type { KeysTables } from "./schema.js";

export { migrations } from "./migrations/index.js";
export type * from "./schema.js";

export const SCHEMA = "keys";

export type KeysDatabase = Database<KeysTables>;
