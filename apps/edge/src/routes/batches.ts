import type { Principal } from "@gw/auth";
import { GatewayError, isGatewayError } from "@gw/errors";
import { requestOrigin } from "@gw/http";
import type { Request, Response } from "express";
import { type FeatureSupport, requestFeatures, splitPluginFields } from "../canonical/plugins.js";
import type { BatchClient } from "../clients/batches.js";
import { resolveApiKey } from "../middleware/api-key.js";
import type { EdgeContext } from "../pipeline/edge-context.js";
import { messageBatch, parseCreateBatch } from "../translate/anthropic/batches.js";
import type { Route } from "./route.js";

const BASE = "/v1/messages/batches";

type Handler = (
  request: Request,
  response: Response,
  batches: BatchClient,
  principal: Principal,
) => Promise<void>;

/** The gateway's base URL for absolute `results_url`s: the configured public one, else as the client reached it. */
function baseUrl(context: EdgeContext, request: Request): string {
  // Host is checked, not echoed as sent (issue 33): a malformed one is a 400, not a broken URL.
  return context.settings?.publicBaseUrl ?? requestOrigin(request.protocol, request.get("host")).origin;
}

function notFound(id: string): GatewayError {
  return new GatewayError("not_found", `message batch ${id} does not exist`, { code: "batch_not_found" });
}

function notEnded(id: string, what: string): GatewayError {
  return new GatewayError("invalid_request", `message batch ${id} is still processing: ${what}`, {
    code: "batch_not_ended",
  });
}

function batchId(request: Request): string {
  return String(request.params.id ?? "");
}

/** Authenticates, then runs the handler against the batch store; a store that does not answer is a 503. */
function handle(context: EdgeContext, handler: Handler) {
  return async (request: Request, response: Response): Promise<void> => {
    const principal = await resolveApiKey(context.principals, request);
    const batches = context.batches;
    if (!batches)
      throw new GatewayError("service_unavailable", "message batches are not configured on this gateway", {
        code: "batches_not_configured",
      });
    try {
      await handler(request, response, batches, principal);
    } catch (error) {
      if (isGatewayError(error)) throw error;
      throw new GatewayError("service_unavailable", "the batch store is unavailable", {
        code: "dependency_unavailable",
        cause: error,
      });
    }
  };
}

function limitOf(value: unknown): number {
  if (value === undefined) return 20;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new GatewayError("invalid_request", "limit: expected an integer from 1 to 1000", {
      code: "invalid_parameter",
    });
  return limit;
}

/**
 * Anthropic's Message Batches API. Batches are stored by the generations app and served by the
 * edges themselves through the normal request path (see batches/worker.ts), so any model works and
 * every request is metered.
 */
export function batchRoutes(context: EdgeContext): Route[] {
  const create: Handler = async (request, response, batches, principal) => {
    const body = parseCreateBatch(request.body);
    const support = { webSearch: context.settings.webSearch !== undefined };
    for (const [index, entry] of body.requests.entries()) checkBatchPlugins(entry.params, index, support);
    const batch = await batches.create({
      accountId: principal.accountId,
      keyHash: principal.keyHash,
      items: body.requests.map((entry) => ({
        customId: entry.custom_id,
        paramsJson: JSON.stringify(entry.params),
      })),
    });
    response.json(messageBatch(batch, baseUrl(context, request)));
  };
  const list: Handler = async (request, response, batches, { accountId }) => {
    const page = await batches.list({
      accountId,
      limit: limitOf(request.query.limit),
      beforeId: typeof request.query.before_id === "string" ? request.query.before_id : "",
      afterId: typeof request.query.after_id === "string" ? request.query.after_id : "",
    });
    const data = page.batches.map((batch) => messageBatch(batch, baseUrl(context, request)));
    response.json({
      data,
      has_more: page.hasMore,
      first_id: page.batches[0]?.id ?? null,
      last_id: page.batches.at(-1)?.id ?? null,
    });
  };
  const get: Handler = async (request, response, batches, { accountId }) => {
    const answer = await batches.get({ id: batchId(request), accountId });
    if (answer.result?.$case !== "batch") throw notFound(batchId(request));
    response.json(messageBatch(answer.result.value, baseUrl(context, request)));
  };
  const cancel: Handler = async (request, response, batches, { accountId }) => {
    const answer = await batches.cancel({ id: batchId(request), accountId });
    if (answer.result?.$case !== "batch") throw notFound(batchId(request));
    response.json(messageBatch(answer.result.value, baseUrl(context, request)));
  };
  const remove: Handler = async (request, response, batches, { accountId }) => {
    const answer = await batches.delete({ id: batchId(request), accountId });
    if (answer.result?.$case === "notEnded")
      throw notEnded(batchId(request), "cancel it or wait before deleting it");
    if (answer.result?.$case !== "deleted") throw notFound(batchId(request));
    response.json({ id: batchId(request), type: "message_batch_deleted" });
  };
  const results: Handler = async (request, response, batches, { accountId }) => {
    const answer = await batches.results({ id: batchId(request), accountId });
    if (answer.result?.$case === "notEnded")
      throw notEnded(batchId(request), "results are available once it has ended");
    if (answer.result?.$case !== "results") throw notFound(batchId(request));
    response.setHeader("Content-Type", "application/x-jsonl; charset=utf-8");
    const lines = answer.result.value.lines.map(
      (line) => `${JSON.stringify({ custom_id: line.customId, result: JSON.parse(line.resultJson) })}\n`,
    );
    response.send(lines.join(""));
  };
  return [
    { method: "post", path: BASE, handlers: [handle(context, create)] },
    { method: "get", path: BASE, handlers: [handle(context, list)] },
    { method: "get", path: `${BASE}/:id`, handlers: [handle(context, get)] },
    { method: "post", path: `${BASE}/:id/cancel`, handlers: [handle(context, cancel)] },
    { method: "delete", path: `${BASE}/:id`, handlers: [handle(context, remove)] },
    { method: "get", path: `${BASE}/:id/results`, handlers: [handle(context, results)] },
  ];
}

/**
 * A batch request's plugins and transforms are served or refused like a direct request's, and refused
 * at submission (naming the request) rather than when the batch runs. The one exception is what
 * depends on the plan: whether the web plugin can search natively is decided when the item runs.
 */
export function checkBatchPlugins(
  params: Record<string, unknown> & { model: string },
  index: number,
  support: FeatureSupport = { webSearch: false },
): void {
  try {
    requestFeatures({ model: params.model, ...splitPluginFields(params).fields }, support);
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    const field = `requests[${index}].params.${String(error.metadata?.field ?? "")}`;
    throw new GatewayError("invalid_request", `requests[${index}].params.${error.message}`, {
      code: "invalid_request",
      metadata: { field },
    });
  }
}
