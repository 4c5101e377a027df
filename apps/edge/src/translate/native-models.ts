import { GatewayError } from "@gw/errors";
import type { Request } from "express";
import type { CatalogSnapshot, Model } from "../catalog/snapshot.js";
import type { ModelEntry } from "./openai/models.js";

/** Which SDK is listing models: they share `/v1/models` and are told apart by their headers. */
export function modelsDialect(request: Pick<Request, "headers" | "path">): "openai" | "anthropic" | "gemini" {
  if (request.path.startsWith("/v1beta/") || request.headers["x-goog-api-key"] !== undefined) return "gemini";
  if (request.headers["anthropic-version"] !== undefined) return "anthropic";
  return "openai";
}

/** Anthropic's model object. */
export function anthropicModel(entry: ModelEntry): Record<string, unknown> {
  return {
    type: "model",
    id: entry.id,
    display_name: entry.name,
    created_at: new Date(entry.created * 1000).toISOString(),
  };
}

function count(value: unknown, fallback: number, max: number, name: string): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > max)
    throw new GatewayError("invalid_request", `${name}: expected an integer from 1 to ${max}`, {
      code: "invalid_parameter",
    });
  return parsed;
}

/** Anthropic's cursor page (`limit`, `after_id`, `before_id`) over the visible models. */
export function anthropicModelList(
  entries: readonly ModelEntry[],
  query: Request["query"],
): Record<string, unknown> {
  const limit = count(query.limit, 20, 1000, "limit");
  let start = 0;
  let end = entries.length;
  if (typeof query.after_id === "string")
    start = entries.findIndex((entry) => entry.id === query.after_id) + 1;
  if (typeof query.before_id === "string")
    end = Math.max(
      0,
      entries.findIndex((entry) => entry.id === query.before_id),
    );
  const page =
    typeof query.before_id === "string"
      ? entries.slice(Math.max(start, end - limit), end)
      : entries.slice(start, start + limit);
  const data = page.map(anthropicModel);
  const hasMore = typeof query.before_id === "string" ? end - limit > start : start + limit < end;
  return { data, has_more: hasMore, first_id: page[0]?.id ?? null, last_id: page.at(-1)?.id ?? null };
}

/** Gemini's model object; `name` carries our full id so it can be passed back as the model. */
export function geminiModel(entry: ModelEntry, model: Model | undefined): Record<string, unknown> {
  const embedding = model?.kind === "embedding";
  const output = Math.max(0, ...(model?.endpoints ?? []).map((endpoint) => endpoint.maxCompletionTokens));
  return {
    name: `models/${entry.id}`,
    baseModelId: entry.id,
    version: "001",
    displayName: entry.name,
    description: `${entry.name} through Model Gateway`,
    inputTokenLimit: entry.context_length,
    outputTokenLimit: output,
    supportedGenerationMethods: embedding
      ? ["embedContent", "batchEmbedContents"]
      : ["generateContent", "streamGenerateContent", "countTokens"],
  };
}

/** Gemini's page (`pageSize`, `pageToken` = an offset we hand out). */
export function geminiModelList(
  snapshot: CatalogSnapshot,
  entries: readonly ModelEntry[],
  query: Request["query"],
): Record<string, unknown> {
  const size = count(query.pageSize, 50, 1000, "pageSize");
  const offset =
    query.pageToken === undefined || query.pageToken === ""
      ? 0
      : count(query.pageToken, 0, entries.length, "pageToken");
  const page = entries.slice(offset, offset + size);
  const next = offset + size < entries.length ? String(offset + size) : undefined;
  return {
    models: page.map((entry) => geminiModel(entry, snapshot.model(entry.id))),
    ...(next ? { nextPageToken: next } : {}),
  };
}
