import { GatewayError } from "@gw/errors";
import type { Request, Response } from "express";
import type { EdgeDeps } from "../deps.js";
import { resolveApiKey } from "../middleware/api-key.js";
import { chatAvailability } from "../pipeline/availability.js";
import { planFor } from "../pipeline/plan-for.js";
import { serveInference, startRequest } from "../pipeline/serve.js";
import { nativeModelId } from "../planner/native-model.js";
import type { EdgeRuntime } from "../runtime.js";
import { chatRequestFromGemini, parseGenerateContent } from "../translate/gemini/generate-request.js";
import { geminiSurface } from "../translate/gemini/generate-response.js";
import { promptText } from "../translate/openai/prompt-text.js";
import { translating } from "../translate/untranslatable.js";
import { estimateUsage } from "../usage/estimate.js";
import type { Route } from "./route.js";

const NATIVE_AUTHORS = ["google"];

export type GeminiMethod = (request: Request, response: Response, model: string) => Promise<void>;

/** `…/models/{model}:{method}` (the colon may arrive percent-encoded) → its two halves. */
export function splitModelMethod(path: string): { model: string; method: string } | undefined {
  const match = /\/models\/(.+):([A-Za-z]+)$/.exec(decodeURIComponent(path));
  return match ? { model: match[1] ?? "", method: match[2] ?? "" } : undefined;
}

/**
 * POST /v1beta/models/{model}:{method}, and the same under /v1 (where @google/genai 3 sends it):
 * generateContent, streamGenerateContent (`alt=sse` frames, a JSON array without), countTokens, plus
 * whatever other methods are registered (embeddings).
 */
export function geminiRoute(
  deps: EdgeDeps,
  runtime: EdgeRuntime,
  extra: Record<string, GeminiMethod> = {},
): Route {
  const availability = chatAvailability(deps.providers);
  const generate =
    (stream: boolean): GeminiMethod =>
    async (request, response, model) => {
      const start = startRequest(runtime, response);
      const principal = await resolveApiKey(deps.principals, request);
      const body = parseGenerateContent(request.body);
      const id = nativeModelId(deps.catalog.require(), model, NATIVE_AUTHORS);
      const chat = translating(() => chatRequestFromGemini(body, id, stream));
      const surface = geminiSurface(request.query.alt === "sse");
      await serveInference(
        deps,
        runtime,
        { start, principal, request: chat, surface, availability },
        response,
      );
    };
  const countTokens: GeminiMethod = async (request, response, model) => {
    const principal = await resolveApiKey(deps.principals, request);
    const raw = (request.body ?? {}) as Record<string, unknown>;
    const body = parseGenerateContent(raw.generateContentRequest ?? request.body);
    const id = nativeModelId(deps.catalog.require(), model, NATIVE_AUTHORS);
    const chat = translating(() => chatRequestFromGemini(body, id, false));
    planFor(deps, runtime, { principal, request: chat, availability });
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
  return { method: "post", path: ["/v1beta/models/*rest", "/v1/models/*rest"], handlers: [handler] };
}
