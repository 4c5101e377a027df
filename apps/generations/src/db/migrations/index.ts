import type { Migrations } from "@gw/db";
import { generations } from "./20261122T121000_generations.js";
import { messageBatches } from "./20261122T140000_message_batches.js";
import { activity } from "./20261123T170000_activity.js";

export const migrations: Migrations = {
  "20261122T121000_generations": generations,
  "20261122T140000_message_batches": messageBatches,
  "20261123T170000_activity": activity,
};
