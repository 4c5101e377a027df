import type { Logger } from "@gw/logger";
import type { Batch, BatchServiceServer } from "@gw/proto/generations/v1/batches";
import { unaryHandler } from "@gw/rpc";
import type { Kysely } from "kysely";
import type { GenerationsTables } from "../db/schema.js";
import {
  type BatchView,
  batchResults,
  cancelBatch,
  claimItems,
  completeItem,
  createBatch,
  deleteBatch,
  findBatch,
  listBatches,
} from "../repositories/batches.js";

const ms = (date: Date | null): bigint => (date ? BigInt(date.getTime()) : 0n);

function batchMessage(view: BatchView): Batch {
  return {
    id: view.id,
    processingStatus: view.status,
    ...view.counts,
    createdAtMs: ms(view.createdAt),
    expiresAtMs: ms(view.expiresAt),
    endedAtMs: ms(view.endedAt),
    cancelInitiatedAtMs: ms(view.cancelInitiatedAt),
  };
}

/** BatchService: the stored side of message batches (edges serve the surface and run the requests). */
export function batchService(
  db: Kysely<GenerationsTables>,
  logger: Logger,
  now: () => Date = () => new Date(),
): BatchServiceServer {
  return {
    create: unaryHandler(async (request) => {
      const items = request.items.map((item) => ({
        customId: item.customId,
        params: JSON.parse(item.paramsJson),
      }));
      return batchMessage(
        await createBatch(db, { accountId: request.accountId, keyHash: request.keyHash, items }, now()),
      );
    }, logger),
    get: unaryHandler(async (request) => {
      const found = await findBatch(db, request.id, request.accountId);
      return found
        ? { result: { $case: "batch", value: batchMessage(found) } }
        : { result: { $case: "notFound", value: true } };
    }, logger),
    list: unaryHandler(async (request) => {
      const page = await listBatches(db, request.accountId, {
        limit: request.limit > 0 ? request.limit : 20,
        beforeId: request.beforeId || undefined,
        afterId: request.afterId || undefined,
      });
      return { batches: page.batches.map(batchMessage), hasMore: page.hasMore };
    }, logger),
    cancel: unaryHandler(async (request) => {
      const found = await cancelBatch(db, request.id, request.accountId, now());
      return found
        ? { result: { $case: "batch", value: batchMessage(found) } }
        : { result: { $case: "notFound", value: true } };
    }, logger),
    delete: unaryHandler(async (request) => {
      const outcome = await deleteBatch(db, request.id, request.accountId);
      if (outcome === "deleted") return { result: { $case: "deleted", value: true } };
      if (outcome === "not_ended") return { result: { $case: "notEnded", value: true } };
      return { result: { $case: "notFound", value: true } };
    }, logger),
    results: unaryHandler(async (request) => {
      const lines = await batchResults(db, request.id, request.accountId);
      if (lines === "not_found") return { result: { $case: "notFound", value: true } };
      if (lines === "not_ended") return { result: { $case: "notEnded", value: true } };
      return {
        result: {
          $case: "results",
          value: {
            lines: lines.map((line) => ({
              customId: line.customId,
              resultJson: JSON.stringify(line.result),
            })),
          },
        },
      };
    }, logger),
    claim: unaryHandler(async (request) => {
      const items = await claimItems(
        db,
        Math.max(1, Math.min(request.limit, 100)),
        Number(request.leaseMs),
        now(),
      );
      return {
        items: items.map((item) => ({
          batchId: item.batchId,
          itemId: BigInt(item.itemId),
          accountId: item.accountId,
          keyHash: item.keyHash,
          customId: item.customId,
          paramsJson: JSON.stringify(item.params),
        })),
      };
    }, logger),
    complete: unaryHandler(async (request) => {
      await completeItem(
        db,
        {
          batchId: request.batchId,
          itemId: String(request.itemId),
          outcome: request.outcome,
          result: JSON.parse(request.resultJson),
        },
        now(),
      );
      return {};
    }, logger),
  };
}
