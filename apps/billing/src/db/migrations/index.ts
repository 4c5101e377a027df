import type { Migrations } from "@gw/db";
import { ledger } from "./20261122T130000_ledger.js";
import { ledgerIndexes } from "./20261127T210000_ledger_indexes.js";
import { unsettledPayments } from "./20261128T010000_unsettled_payments.js";

export const migrations: Migrations = {
  "20261122T130000_ledger": ledger,
  "20261127T210000_ledger_indexes": ledgerIndexes,
  "20261128T010000_unsettled_payments": unsettledPayments,
};
