import { GatewayError } from "@gw/errors";
import type { Request, Response } from "express";
import { splitPluginFields } from "../canonical/plugins.js";
import { promptText } from "../canonical/prompt-text.js";
import { resolveApiKey } from "../middleware/api-key.js";
import type { EdgeContext } from "../pipeline/edge-context.js";
import { serveInference, startRequest } from "../pipeline/serve.js";
import { nativeModelId } from "../planning/native-model.js";
import { translateNative, withNativeRequest } from "../providers/native.js";
import { chatRequestFromGemini, parseGenerateContent } from "../translate/gemini/generate-request.js";
import { geminiSurface } from "../translate/gemini/generate-response.js";
import { translating } from "../translate/untranslatable.js";
import { estimateUsage } from "../usage/estimate.js";
import type { Route } from "./route.js";

const NATIVE_AUTHORS = ["google"];

export type GeminiMethod = (request: Request, response: Response, model: string) => Promise<void>;

/**
 * `…/models/{model}:{method}` (the colon may arrive percent-encoded) → its two halves; also
 * `/v1beta/{author}/{slug}:{method}`, where the model is `{author}/{slug}`: clients that take a name
 * with a `/` as a resource path (@ai-sdk/google, LangChain's Google client) call a catalogue id there.
 */
export function splitModelMethod(path: string): { model: string; method: string } | undefined {
  const decoded = decodeURIComponent(path);
  const match =
    /\/models\/(.+):([A-Za-z]+)$/.exec(decoded) ?? /^\/v1beta\/([^/]+\/[^/]+):([A-Za-z]+)$/.exec(decoded);
  return match ? { model: match[1] ?? "", method: match[2] ?? "" } : undefined;
}

/**
 * Express paths of the Gemini methods: `models/` under both versions (@google/genai), and the
 * `author/slug` form under v1beta (one segment of author, then the slug and method).
 */
export const GEMINI_PATHS = ["/v1beta/models/*rest", "/v1/models/*rest", "/v1beta/:author/*rest"];

/**
 * POST /v1beta/models/{model}:{method}, the same under /v1 (where @google/genai 3 sends it) and
 * /v1beta/{author}/{slug}:{method} (where @ai-sdk/google and LangChain send a catalogue id):
 * generateContent, streamGenerateContent (`alt=sse` frames, a JSON array without), countTokens, plus
 * whatever other methods are registered (embeddings).
 */
export function geminiRoute(context: EdgeContext, extra: Record<string, GeminiMethod> = {}): Route {
  const generate =
    (stream: boolean): GeminiMethod =>
    async (request, response, model) => {
      const start = startRequest(context, response);
      const principal = await resolveApiKey(context.principals, request);
      // The gateway's OpenRouter fields are taken here as on every surface: plugins and transforms are
      // served or refused by name (a Google endpoint's native body loses them, gateway-fields.ts).
      const split = splitPluginFields(request.body);
      const body = parseGenerateContent(split.body);
      const id = nativeModelId(context.catalog.require(), model, NATIVE_AUTHORS);
      const translated = translating(() =>
        translateNative("gemini", body, (native) => chatRequestFromGemini(native, id, stream)),
      );
      const chat = { ...translated.chat, ...split.fields };
      // To a Google endpoint the body goes as sent, on the caller's API version (google/native-rules.ts).
      withNativeRequest(chat, {
        format: "gemini",
        body: request.body as Record<string, unknown>,
        headers: {},
        apiVersion: request.path.startsWith("/v1/") ? "v1" : "v1beta",
        untranslated: translated.untranslated,
      });
      const surface = geminiSurface(request.query.alt === "sse");
      await serveInference(context, { start, principal, request: chat, surface }, response);
    };
  const countTokens: GeminiMethod = async (request, response, model) => {
    const principal = await resolveApiKey(context.principals, request);
    const raw = (request.body ?? {}) as Record<string, unknown>;
    const body = parseGenerateContent(raw.generateContentRequest ?? request.body);
    const id = nativeModelId(context.catalog.require(), model, NATIVE_AUTHORS);
    const chat = translating(() => chatRequestFromGemini(body, id, false));
    context.planner.check({ principal, request: chat, kind: "chat" });
    const usage = await estimateUsage(promptText(chat), []);
    response.json({ totalTokens: usage.promptTokens });
  };
  const methods: Record<string, GeminiMethod> = {
    generateContent: generate(false),
    streamGenerateContent: generate(true),
    countTokens,
    ...extra,
  };
  const handler = async (request: Request, response: Response): Promise<void> => {
    const call = splitModelMethod(request.path);
    const method = call && Object.hasOwn(methods, call.method) ? methods[call.method] : undefined;
    if (!call || !method)
      throw new GatewayError("not_found", `no route for POST ${request.path}`, { code: "route_not_found" });
    await method(request, response, call.model);
  };
  return { method: "post", path: GEMINI_PATHS, handlers: [handler] };
}
