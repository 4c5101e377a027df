import type { Migrations } from "@gw/db";
import { generations } from "./20261122T121000_generations.js";

export const migrations: Migrations = {
  "20261122T121000_generations": generations,
};
