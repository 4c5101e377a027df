import { GatewayError } from "@gw/errors";
import { generationIdTime } from "@gw/events";
import type { Kysely } from "kysely";
import type { GenerationsTables } from "../db/schema.js";
import type { GenerationRow } from "../records/usage-row.js";
import { findGeneration } from "./generations.js";

/** How long after a request its record may still be on its way through the usage topic. */
export const PENDING_WINDOW_MS = 120_000;

/**
 * The owning account's generation, or a 404. An id of ours minted within the pending window that is not
 * (yet) visible answers "pending, retry" instead of "not found". Whether it is pending depends on the id
 * alone, never on another account's rows, so the answer reveals nothing about other accounts.
 */
export async function lookupGeneration(
  db: Kysely<GenerationsTables>,
  id: string,
  accountId: string,
  now: number = Date.now(),
): Promise<GenerationRow> {
  const row = await findGeneration(db, id, accountId);
  if (row) return row;
  if (isRecentId(id, now)) {
    throw new GatewayError("not_found", "generation is not available yet; retry shortly", {
      code: "generation_pending",
      headers: { "Retry-After": "1" },
    });
  }
  throw new GatewayError("not_found", "generation not found", { code: "generation_not_found" });
}

export function isRecentId(id: string, now: number): boolean {
  const minted = generationIdTime(id);
  // Allow the same window into the future: the minting edge's clock may run a little ahead of ours.
  return minted !== undefined && Math.abs(now - minted) < PENDING_WINDOW_MS;
}
