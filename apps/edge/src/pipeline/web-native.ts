import { nativeWebSearchPerAnswer, nativeWebSearchPico } from "@gw/catalog";
import { type NativeWebSearch, type RequestFeatures, refuse, refuseWeb } from "../canonical/plugins.js";
import type { TokenUsage } from "../canonical/tokens.js";
import type { PlannedAttempt } from "../planning/plan.js";
import type { Route } from "../planning/planner.js";
import { nativeSearchTarget } from "../providers/native-search.js";

/**
 * Anthropic runs searches until the model stops or `max_uses` is reached, with no bound of its own; the
 * gateway always sends one (this, unless the plugin set `max_uses`), so the hold has one to count.
 */
export const DEFAULT_NATIVE_MAX_USES = 5;

/** How the web plugin is served for one request: by the provider's own search, the operator's, or not asked. */
export interface WebServing {
  /** The plan the request is held and served on (native: only the endpoints with their own search). */
  route: Route;
  native: NativeWebSearch | undefined;
  /** Search the operator's Exa-compatible API first (web-admitted.ts). */
  exa: boolean;
}

/**
 * The provider's own search where the plan has it, the operator's search API otherwise (issue 32). An
 * endpoint has native search when the catalogue lists `web_search_options` in its supported parameters,
 * the gateway can price its searches (@gw/catalog `nativeWebSearchPico`) and its adapter sends them
 * (`ProviderAdapter.nativeWebSearch`). Native search is chosen when every planned endpoint has it (so
 * a failover never lands on a model without any search), when the caller asked for it (`engine:
 * "native"` or `max_uses`), or when no search API is configured: the plan then keeps only the endpoints
 * that have it, and none is a 400 naming the plugin.
 */
export function webServing(features: RequestFeatures, route: Route, exaConfigured: boolean): WebServing {
  const web = features.web;
  if (web === undefined) return { route, native: undefined, exa: false };
  if (web.engine === "exa") return { route, native: undefined, exa: true };
  const capable = route.attempts.filter((attempt) => searchPriceOf(route, attempt) !== undefined);
  const native: NativeWebSearch = {
    maxUses: web.maxUses ?? DEFAULT_NATIVE_MAX_USES,
    includeDomains: web.includeDomains,
    excludeDomains: web.excludeDomains,
  };
  if (capable.length === route.attempts.length && capable.length > 0) return { route, native, exa: false };
  const nativeAsked = web.engine === "native" || web.maxUses !== undefined;
  if (!nativeAsked && exaConfigured) return { route, native: undefined, exa: true };
  if (capable.length === 0) {
    const field = web.field ?? "plugins";
    if (!nativeAsked) refuseWeb(field, field === "model" ? "the :online variant is the web plugin; " : "");
    refuse(field, "no endpoint planned for this request offers the provider's own web search");
  }
  return {
    route: { attempts: capable, adapterFor: (attempt) => route.adapterFor(attempt) },
    native,
    exa: false,
  };
}

/** One search's price on the attempt's endpoint, or undefined when it has no native search the gateway prices. */
export function searchPriceOf(route: Pick<Route, "adapterFor">, attempt: PlannedAttempt): bigint | undefined {
  const target = searchTargetOf(route, attempt);
  if (target === undefined) return undefined;
  const { supportedParameters } = attempt.endpoint;
  return nativeWebSearchPico(target.format, { upstreamModel: target.model, supportedParameters });
}

/** The format the attempt's search is sent in and the model it is priced by (a Vertex endpoint: Gemini's). */
function searchTargetOf(route: Pick<Route, "adapterFor">, attempt: PlannedAttempt) {
  return nativeSearchTarget(route.adapterFor(attempt), attempt.endpoint.upstreamModel);
}

/**
 * Searches one call is held for and billed at most: one where the provider bills per answer; else
 * `max_uses`, which Anthropic enforces. Gemini 3 bills each query and Google documents no per-request
 * bound on them (its `googleSearch` tool has no maximum to send, and none is published): the gateway's
 * `max_uses` (default 5) is the bound it holds, and a charge never goes past what was held, so a
 * spending cap holds; queries beyond it are recorded as unbilled (nativeSearchCharge).
 */
function searchesAtMost(route: Route, attempt: PlannedAttempt, native: NativeWebSearch): number {
  return perAnswer(route, attempt) ? 1 : native.maxUses;
}

function perAnswer(route: Pick<Route, "adapterFor">, attempt: PlannedAttempt): boolean {
  const target = searchTargetOf(route, attempt);
  return target !== undefined && nativeWebSearchPerAnswer(target.format, target.model);
}

/** The hold's share for native search: the dearest planned endpoint's searches at their most. */
export function nativeSearchHoldPico(serving: WebServing): bigint {
  const native = serving.native;
  if (native === undefined) return 0n;
  return serving.route.attempts.reduce((most, attempt) => {
    const price = searchPriceOf(serving.route, attempt) ?? 0n;
    const held = price * BigInt(searchesAtMost(serving.route, attempt, native));
    return held > most ? held : most;
  }, 0n);
}

/**
 * What the searches the serving provider reports cost: Anthropic's `web_search_requests`, Gemini's
 * queries (Gemini 2.x: once per grounded answer); OpenAI bills its search models per call, so one.
 *
 * Usage the gateway estimated (no usage came: a stream cut before its last event, a body without it)
 * bills the searches the answer showed, which the estimate carries: Anthropic streams each search's
 * `server_tool_use` block before anything that uses it, so its count is exact up to the cut. Gemini
 * shows its queries only in the last chunks' `groundingMetadata`: an estimated Gemini answer that
 * showed none cannot tell "no search" from "not shown yet", and is billed the searches held for it
 * (the worst case, which the hold already covers), since Google ran and bills them either way.
 */
export function nativeSearchCharge(
  route: Route,
  attempt: PlannedAttempt,
  measured: { usage: TokenUsage; estimated: boolean },
  native: NativeWebSearch,
): NativeSearchCharge {
  const price = searchPriceOf(route, attempt);
  if (price === undefined) return { searches: 0, pico: 0n };
  const reported = measured.usage.webSearches ?? 0;
  const format = searchTargetOf(route, attempt)?.format;
  // OpenAI's search models search on every call and report no count; Gemini 2.x bills a grounded answer once.
  if (format === "openai") return { searches: 1, pico: price };
  const held = searchesAtMost(route, attempt, native);
  const unseen = measured.estimated && reported === 0 && format === "gemini";
  const shown = unseen ? held : reported;
  const billable = perAnswer(route, attempt) ? Math.min(shown, 1) : shown;
  // Never past the hold: a Gemini 3 answer that ran more queries than held is billed the held ones.
  const searches = Math.min(billable, held);
  const unbilled = billable - searches;
  return { searches, pico: BigInt(searches) * price, ...(unbilled > 0 ? { unbilled } : {}) };
}

/** The provider's searches on the serving attempt and what they cost. */
export interface NativeSearchCharge {
  searches: number;
  pico: bigint;
  /** Searches the provider ran beyond those held for (Gemini 3 has no cap of its own), not billed. */
  unbilled?: number;
}
