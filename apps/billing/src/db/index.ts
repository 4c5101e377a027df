import type { Database } from "@gw/db";
import type { BillingTables } from "./schema.js";

export { migrations } from "./migrations/index.js";
export type * from "./schema.js";

export const SCHEMA = "billing";

export type BillingDatabase = Database<BillingTables>;
