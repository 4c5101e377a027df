import type { Logger } from "@gw/logger";
import type { GenerationServiceServer, GetResponse } from "@gw/proto/generations/v1/generations";
import { unaryHandler } from "@gw/rpc";
import type { Kysely } from "kysely";
import type { GenerationsTables } from "../db/schema.js";
import { usageFromRow } from "../records/usage-row.js";
import { findGeneration } from "../repositories/generations.js";

/** GenerationService.Get: the generation if it belongs to the account, otherwise not_found. */
export function generationService(db: Kysely<GenerationsTables>, logger: Logger): GenerationServiceServer {
  return {
    get: unaryHandler(async (request): Promise<GetResponse> => {
      const row = await findGeneration(db, request.id, request.accountId);
      return row
        ? { result: { $case: "generation", value: usageFromRow(row) } }
        : { result: { $case: "notFound", value: true } };
    }, logger),
  };
}
