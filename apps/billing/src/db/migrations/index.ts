import type { Migrations } from "@gw/db";
import { ledger } from "./20261122T130000_ledger.js";

export const migrations: Migrations = {
  "20261122T130000_ledger": ledger,
};
