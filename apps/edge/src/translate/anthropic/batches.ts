import { GatewayError } from "@gw/errors";
import { parseOrThrow, UNSTORABLE_TEXT, unstorableTextPath } from "@gw/http";
import type { Batch } from "@gw/proto/generations/v1/batches";
import { z } from "zod";
import { UntranslatableError } from "../untranslatable.js";
import { chatRequestFromMessages, messagesRequestSchema } from "./messages-request.js";

/** Anthropic's limit on requests in one batch. */
export const MAX_BATCH_REQUESTS = 100_000;

export const createBatchSchema = z.looseObject({
  requests: z
    .array(
      z.looseObject({
        custom_id: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, "expected 1 to 64 letters, digits, - or _"),
        params: messagesRequestSchema.refine((params) => params.stream !== true, {
          message: "streaming is not available in a batch",
          path: ["stream"],
        }),
      }),
    )
    .min(1)
    .max(MAX_BATCH_REQUESTS),
});

export type CreateBatchBody = z.infer<typeof createBatchSchema>;

/**
 * A batch as Anthropic validates it: every request's params are checked (and translated, so what no
 * provider could be sent fails now, naming the request) before anything is stored.
 */
export function parseCreateBatch(body: unknown): CreateBatchBody {
  const parsed = parseOrThrow(createBatchSchema, body);
  // Stored as jsonb by the generations app until it runs: PostgreSQL takes no NUL and no unpaired
  // surrogate there, so such a batch is the caller's 400 now rather than the store's failure (a 503).
  const unstorable = unstorableTextPath(parsed.requests);
  if (unstorable !== undefined)
    throw new GatewayError("invalid_request", `requests${unstorable}: ${UNSTORABLE_TEXT}`, {
      code: "invalid_request",
      metadata: { field: `requests${unstorable}` },
    });
  const seen = new Set<string>();
  for (const [index, request] of parsed.requests.entries()) {
    if (seen.has(request.custom_id))
      throw new GatewayError(
        "invalid_request",
        `requests[${index}].custom_id: duplicate ${request.custom_id}`,
        {
          code: "invalid_request",
        },
      );
    seen.add(request.custom_id);
    try {
      chatRequestFromMessages(request.params);
    } catch (error) {
      if (!(error instanceof UntranslatableError)) throw error;
      throw new GatewayError("invalid_request", `requests[${index}].params.${error.message}`, {
        code: "untranslatable_request",
      });
    }
  }
  return parsed;
}

const iso = (ms: bigint): string | null => (ms > 0n ? new Date(Number(ms)).toISOString() : null);

/** Anthropic's MessageBatch; `results_url` is absolute on the gateway's own base URL once it has ended. */
export function messageBatch(batch: Batch, baseUrl: string): Record<string, unknown> {
  const ended = batch.processingStatus === "ended";
  return {
    id: batch.id,
    type: "message_batch",
    processing_status: batch.processingStatus,
    request_counts: {
      processing: batch.processing,
      succeeded: batch.succeeded,
      errored: batch.errored,
      canceled: batch.canceled,
      expired: batch.expired,
    },
    created_at: iso(batch.createdAtMs),
    expires_at: iso(batch.expiresAtMs),
    ended_at: iso(batch.endedAtMs),
    cancel_initiated_at: iso(batch.cancelInitiatedAtMs),
    archived_at: null,
    results_url: ended ? `${baseUrl}/v1/messages/batches/${batch.id}/results` : null,
  };
}
