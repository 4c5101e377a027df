import type { Principal } from "@gw/auth";
import { PROVIDERS } from "@gw/catalog";
import { GatewayError } from "@gw/errors";
import type { Response } from "express";
import type { Hold } from "../admission/admit.js";
import { estimatePromptTokens } from "../admission/worst-case.js";
import { computeCost, ZERO_COST } from "../canonical/cost.js";
import type { AttemptFault, Generation } from "../canonical/generation.js";
import { ZERO_USAGE } from "../canonical/tokens.js";
import { proxyAttemptFault } from "../planning/fault.js";
import { finalError } from "../providers/failure.js";
import type { ApiFormat } from "../providers/types.js";
import type { EdgeContext } from "./edge-context.js";
import { finishRecord } from "./finish-generation.js";
import {
  checkPriced,
  checkProxyAccess,
  nativeModelName,
  type ProxyModel,
  resolveProxyModel,
} from "./proxy-access.js";
import { checkProxyPath } from "./proxy-path.js";
import { relay, type Served } from "./proxy-relay.js";
import type { RequestStart } from "./serve.js";

/** A native call as the route received it: provider, native path (key param removed), filtered headers. */
export interface ProxyInference {
  start: RequestStart;
  principal: Principal;
  providerId: string;
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  /** The parsed JSON body of a POST. */
  body: unknown;
}

/**
 * The provider proxy: allow-lists → the credential (BYOK first) → admission (lease or Admit) → the native
 * call, its status, headers and body streamed back untouched → usage read from the native body → meter.
 */
export async function serveProxy(
  context: EdgeContext,
  inference: ProxyInference,
  response: Response,
): Promise<void> {
  const { principal, providerId, start } = inference;
  const format = formatOf(providerId);
  const target = checkProxyPath(providerId, inference.method, inference.path);
  const path = target.path + target.query;
  if (inference.method === "POST") checkModelNamed(format, inference.body);
  const model = resolveProxyModel(
    context.catalog.require(),
    providerId,
    nativeModelName(format, target.path, inference.body),
  );
  checkProxyAccess(principal, providerId, model);
  const { transport, isByok } = await context.planner.proxyTransport(principal.accountId, providerId);
  checkPriced(providerId, model);
  if (inference.method === "POST") checkStateless(target.path, inference.body);
  // Checked before admission for every call, priced or not: the provider would refuse it anyway.
  requestedMaxTokens(inference.body);
  const body = inference.method === "POST" ? meteredBody(format, target.path, inference.body) : undefined;
  const hold = await admitProxy(context, inference, model, body);
  inference.start.announce();
  const sentAt = context.now();
  const upstream = await transport.send({
    method: inference.method,
    path,
    headers: inference.headers,
    body,
    signal: start.signal,
  });
  const record = async (served: Served | undefined) => {
    finishRecord(
      context,
      proxyGeneration(inference, model, { served, isByok, endedAt: context.now(), sentAt }),
      hold,
    );
    await context.meter.persisted();
  };
  if ("retryable" in upstream) {
    await record(undefined);
    if (upstream.kind === "cancelled") return void response.end();
    throw finalError(upstream, { provider: providerId });
  }
  await record(await relay(upstream, response, format, start.signal, sentAt));
  response.end();
}

/**
 * Every POST on the allow-lists is an inference call that names its model: in the path for Gemini, as
 * the body's `model` string otherwise. Without one (absent, a number, an array, a body that is not an
 * object) the call could not be priced, so it is the caller's 400, not forwarded as a free call.
 */
function checkModelNamed(format: ApiFormat, body: unknown): void {
  if (format === "gemini") return;
  const model =
    typeof body === "object" && body !== null && !Array.isArray(body)
      ? (body as { model?: unknown }).model
      : undefined;
  if (typeof model === "string" && model !== "") return;
  throw new GatewayError("invalid_request", "model: expected the name of a model as a string", {
    code: "invalid_parameter",
    metadata: { field: "model" },
  });
}

/** The provider's wire format, which says where a call names its model and reports its usage. */
function formatOf(providerId: string): ApiFormat {
  const format = PROVIDERS.find((provider) => provider.id === providerId)?.apiFormat;
  // The clouds have no proxied endpoints (registry.ts), so no call of theirs reaches here.
  return format === "vertex" || format === "azure" || format === undefined ? "openai" : format;
}

/**
 * OpenAI's Responses API keeps every response on the provider account unless told not to, and chains
 * requests through stored ids: on the gateway's shared account that is one tenant's state readable by
 * another. The proxy forwards it stateless only, and says so rather than dropping the fields.
 */
function checkStateless(path: string, body: unknown): void {
  if (!path.endsWith("/responses")) return;
  const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const stored = fields.store !== false;
  const chained = ["previous_response_id", "conversation"].find((name) => fields[name] != null);
  if (!stored && chained === undefined) return;
  const reason = stored
    ? "store: the provider proxy forwards Responses API calls only with store: false (stored responses would live on the gateway's shared provider account)"
    : `${chained}: the provider proxy forwards Responses API calls statelessly; send the full input instead`;
  throw new GatewayError("invalid_request", reason, { code: "invalid_request" });
}

/**
 * The body as sent upstream. One change: an OpenAI-format streamed chat completion asks for the usage
 * chunk (`stream_options.include_usage`), as the chat surface does, so a stream is never metered as free.
 */
function meteredBody(format: ApiFormat, path: string, body: unknown): string {
  if (format !== "openai" || !path.split("?")[0]?.endsWith("/chat/completions")) return JSON.stringify(body);
  const chat = body as { stream?: unknown; stream_options?: Record<string, unknown> };
  if (chat.stream !== true) return JSON.stringify(body);
  return JSON.stringify({ ...chat, stream_options: { ...chat.stream_options, include_usage: true } });
}

/**
 * Admission: the catalogue's worst case for a priced model (unpriced models were refused), else (a call
 * that names no model, the model list) the configured hold, settled at 0 afterwards.
 */
function admitProxy(
  context: EdgeContext,
  inference: ProxyInference,
  model: ProxyModel,
  body: string | undefined,
): Promise<Hold> {
  const common = { generationId: inference.start.generationId, principal: inference.principal };
  if (!model.priced) {
    return context.admission.admit({
      ...common,
      modelId: model.name ?? `${inference.providerId}/native`,
      isFreeModel: false,
      worstCasePico: context.settings.proxyHoldPico,
    });
  }
  return context.admission.admitPlanned({
    ...common,
    requestedModel: model.priced.model.id,
    attempts: [model.priced],
    worstCase: {
      // The whole native body counted as prompt text: never less than the prompt it carries.
      promptTokens: estimatePromptTokens({ texts: [body ?? ""], messageCount: 0, imageCount: 0 }),
      maxTokens: requestedMaxTokens(inference.body),
      choices: 1,
      imageCount: 0,
    },
  });
}

/**
 * `max_completion_tokens`/`max_tokens` (OpenAI, Anthropic) or `generationConfig.maxOutputTokens` (Gemini).
 * The hold is computed from it in integer money, so a value that is not a positive whole number (0.5,
 * -1, 1e400 read as Infinity, a string) is the caller's error, refused here rather than failing there.
 */
function requestedMaxTokens(body: unknown): number | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const fields = body as Record<string, unknown> & { generationConfig?: unknown };
  const config =
    typeof fields.generationConfig === "object" && fields.generationConfig !== null
      ? (fields.generationConfig as Record<string, unknown>)
      : {};
  const named = (
    [
      ["max_completion_tokens", fields.max_completion_tokens],
      ["max_tokens", fields.max_tokens],
      ["generationConfig.maxOutputTokens", config.maxOutputTokens],
    ] as const
  ).find(([, value]) => value !== undefined && value !== null);
  if (named === undefined) return undefined;
  const [field, value] = named;
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return value;
  throw new GatewayError("invalid_request", `${field}: expected a positive integer`, {
    code: "invalid_parameter",
    metadata: { field },
  });
}

function proxyGeneration(
  inference: ProxyInference,
  model: ProxyModel,
  outcome: { served: Served | undefined; isByok: boolean; endedAt: number; sentAt: number },
): Generation {
  const { served } = outcome;
  const ok = served !== undefined && served.status < 400;
  const usage = served?.usage ?? ZERO_USAGE;
  // A call that names no model (the model list) is not priced: usage is recorded, the cost is 0.
  const cost = ok && model.priced ? computeCost(model.priced.endpoint.pricing, usage) : ZERO_COST;
  const modelId = model.priced?.model.id ?? model.name ?? "";
  return {
    generationId: inference.start.generationId,
    accountId: inference.principal.accountId,
    keyHash: inference.principal.keyHash,
    apiType: "proxy",
    streamed: served?.streamed ?? false,
    cancelled: served?.cancelled ?? inference.start.signal.aborted,
    model: modelId,
    provider: inference.providerId,
    upstreamId: undefined,
    finishReason: ok ? "stop" : "error",
    nativeFinishReason: undefined,
    usage,
    // A served call whose provider reported no usage is flagged rather than passed off as measured.
    estimated: ok && served.usage === undefined,
    cost,
    isByok: outcome.isByok,
    startedAt: inference.start.startedAt,
    generationStartedAt: served?.generationStartedAt,
    endedAt: outcome.endedAt,
    attribution: inference.start.attribution,
    attempts: [
      {
        provider: inference.providerId,
        model: modelId,
        status: served?.status ?? 0,
        latencyMs: outcome.endedAt - outcome.sentAt,
        isByok: outcome.isByok,
        ...(ok ? {} : { fault: proxyFault(served, inference, outcome.isByok) }),
      },
    ],
    served: ok,
  };
}

function proxyFault(served: Served | undefined, inference: ProxyInference, isByok: boolean): AttemptFault {
  const cancelled = served?.cancelled ?? inference.start.signal.aborted;
  return proxyAttemptFault(served?.status ?? 0, cancelled, isByok);
}
