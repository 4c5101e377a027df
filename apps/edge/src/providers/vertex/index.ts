import { parseVertexCredential } from "@gw/http";
import { anthropicRequestBody } from "../../translate/anthropic/from-openai.js";
import { geminiRequestBody } from "../../translate/gemini/from-openai.js";
import { withGoogleSearch } from "../../translate/gemini/search-tool.js";
import { thoughtsExcluded } from "../../translate/openai/reasoning.js";
import { parseAnthropicMessage } from "../anthropic/chat.js";
import { anthropicStreamEvents } from "../anthropic/stream.js";
import { exchangeChat, type WireDialect } from "../exchange.js";
import { withoutThoughts } from "../excluded-thoughts.js";
import { networkFailure, type UpstreamFailure } from "../failure.js";
import { parseGeminiResponse } from "../google/index.js";
import { geminiStreamEvents } from "../google/stream.js";
import type { ChatCall, ChatResult, NativeSearchTarget, ProviderFactory } from "../types.js";
import {
  VERTEX_ANTHROPIC_VERSION,
  type VertexDefaults,
  type VertexTarget,
  vertexPath,
  vertexTarget,
} from "./api.js";
import { VertexPools } from "./pools.js";
import { VertexTokens } from "./token.js";

/**
 * Google Vertex AI: Gemini through generateContent and Claude through rawPredict, each in its own
 * publisher's body, with a bearer token from the service account (or the explicit token) it was given.
 * The adapter's format is Anthropic's: that is what the planner checks a request against (Claude is what
 * fails over to Vertex); a Gemini call is translated from the canonical form like any other.
 */
export const vertexProvider: ProviderFactory = (settings, timeouts) => {
  const options = settings.vertex ?? { project: undefined, location: "global", explicitBase: false };
  const credential = parseVertexCredential(settings.apiKey ?? "");
  const tokens = "problem" in credential ? undefined : new VertexTokens(credential, timeouts);
  const defaults = {
    project: options.project ?? keyFileProject(credential),
    location: options.location,
  };
  const pools = new VertexPools(options.explicitBase ? settings.baseUrl : undefined, timeouts);

  async function complete(call: ChatCall): Promise<ChatResult> {
    if (!tokens) return misconfigured("the Vertex AI credential is not a service-account key or a token");
    const target = vertexTarget(call.upstreamModel, defaults);
    if ("problem" in target) return misconfigured(target.problem);
    const token = await tokens.get();
    if (typeof token !== "string") return { ok: false, failure: token };
    const result = await exchangeChat(pools.for(target.location), dialect(target, token), call);
    // A token Vertex refused (revoked, expired early) is not offered again.
    if (!result.ok && result.failure.status === 401) tokens.invalidate(token);
    return thoughtsExcluded(call.request) ? withoutThoughts(result) : result;
  }

  return {
    id: settings.id,
    apiFormat: "anthropic",
    isDemo: false,
    chat: { complete },
    nativeWebSearch: (upstreamModel) => vertexSearchTarget(upstreamModel, defaults),
    unsupported: undefined,
    close: async () => {
      await Promise.all([pools.close(), tokens?.close()]);
    },
  };
};

function dialect(target: VertexTarget, token: string): WireDialect {
  const headers = { "content-type": "application/json", authorization: `Bearer ${token}` };
  if (target.publisher === "anthropic") {
    return {
      request: (call) => ({
        path: vertexPath(target, call.stream),
        headers,
        body: JSON.stringify(vertexClaudeBody(call, target.model)),
      }),
      parse: parseAnthropicMessage,
      events: anthropicStreamEvents,
    };
  }
  return {
    request: (call) => ({
      path: vertexPath(target, call.stream),
      headers,
      body: JSON.stringify(vertexGeminiBody(call)),
    }),
    parse: parseGeminiResponse,
    events: geminiStreamEvents,
  };
}

/**
 * Gemini on Vertex takes Google Search grounding as the Developer API does, the tool `{googleSearch: {}}`
 * (cloud.google.com/vertex-ai/generative-ai/docs/grounding/grounding-with-google-search), so the web
 * plugin's native search is sent the same way.
 */
function vertexGeminiBody(call: ChatCall): Record<string, unknown> {
  const body = geminiRequestBody(call.request);
  withGoogleSearch(body, call.webSearch);
  return body;
}

/**
 * Native search on a Vertex endpoint: its Gemini models only, sent and priced as Gemini's (by the model's
 * own name, a resource path's last segment). Claude on Vertex is sent no search tool, so it has none.
 */
export function vertexSearchTarget(
  upstreamModel: string,
  defaults: VertexDefaults,
): NativeSearchTarget | undefined {
  const target = vertexTarget(upstreamModel, defaults);
  if ("problem" in target || target.publisher !== "google") return undefined;
  return { format: "gemini", model: target.model };
}

/** The Messages body without `model` (it is in the URL) and with Vertex's `anthropic_version`. */
export function vertexClaudeBody(call: ChatCall, model: string): Record<string, unknown> {
  const { model: _inUrl, ...body } = anthropicRequestBody(call.request, model, call.stream, call.outputCap);
  return { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...body };
}

function keyFileProject(credential: ReturnType<typeof parseVertexCredential>): string | undefined {
  return "kind" in credential && credential.kind === "service-account"
    ? credential.account.projectId
    : undefined;
}

/** The gateway's own configuration cannot reach this endpoint: another endpoint may, and Google is not blamed. */
function misconfigured(problem: string): ChatResult {
  const failure: UpstreamFailure = {
    ...networkFailure("protocol", `Vertex AI endpoint not usable: ${problem}`),
    gatewayFault: true,
  };
  return { ok: false, failure };
}
