import { newGenerationId } from "@gw/events";
import type { Request, Response } from "express";
import { admit } from "../admission/admit.js";
import { estimatePromptTokens, worstCaseCost } from "../admission/worst-case.js";
import type { EdgeDeps } from "../deps.js";
import { resolveApiKey } from "../middleware/api-key.js";
import { clientAbortSignal } from "../middleware/client-signal.js";
import { chatAvailability } from "../pipeline/availability.js";
import type { ChatContext } from "../pipeline/context.js";
import { respondJson } from "../pipeline/respond-json.js";
import { respondStream } from "../pipeline/respond-stream.js";
import { planRoute } from "../planner/plan.js";
import type { EdgeRuntime } from "../runtime.js";
import { parseChatRequest, requestedMaxTokens } from "../translate/openai/chat-request.js";
import { requestedParameters } from "../translate/openai/parameters.js";
import { promptText } from "../translate/openai/prompt-text.js";
import type { Route } from "./route.js";

/**
 * POST /v1/chat/completions, the hot path (ARCHITECTURE "The hot path"): authenticate → parse →
 * plan from the in-memory catalogue → one Admit → call providers in plan order → respond → meter.
 */
export function chatCompletionsRoute(deps: EdgeDeps, runtime: EdgeRuntime): Route {
  const availability = chatAvailability(deps.providers);
  const handler = async (request: Request, response: Response): Promise<void> => {
    const startedAt = runtime.now();
    const generationId = newGenerationId(startedAt);
    response.setHeader("X-Generation-Id", generationId);
    const signal = clientAbortSignal(response);
    // Who is asking comes before what is asked: a caller without a valid key learns nothing about
    // the request schema (401 before 400), as the providers' own APIs behave.
    const principal = await resolveApiKey(deps.principals, request);
    const body = parseChatRequest(request.body);
    const plan = planRoute({
      snapshot: deps.catalog.require(),
      kind: "chat",
      model: body.model,
      fallbacks: body.models ?? [],
      preferences: body.provider,
      requestedParameters: requestedParameters(body),
      allowedModels: principal.allowedModels?.values,
      allowedProviders: principal.allowedProviders?.values,
      availability,
      random: runtime.settings.random,
      healthy: (providerId) => runtime.health.isHealthy(providerId),
    });
    const prompt = promptText(body);
    const first = plan.attempts[0]?.model;
    const hold = await admit(deps.billing, {
      generationId,
      principal,
      modelId: first?.id ?? body.model,
      isFreeModel: first?.isFree ?? false,
      worstCasePico: worstCaseCost(plan.attempts, {
        promptTokens: estimatePromptTokens(prompt),
        maxTokens: requestedMaxTokens(body),
        choices: body.n ?? 1,
        imageCount: prompt.imageCount,
      }),
    });
    const context: ChatContext = {
      generationId,
      principal,
      request: body,
      prompt,
      attempts: plan.attempts,
      hold,
      startedAt,
      signal,
    };
    if (body.stream === true) await respondStream(response, context, runtime.pipeline);
    else await respondJson(response, context, runtime.pipeline);
  };
  return { method: "post", path: "/v1/chat/completions", handlers: [handler] };
}
