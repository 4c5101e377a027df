import type { Principal } from "@gw/auth";
import { newGenerationId } from "@gw/events";
import type { Response } from "express";
import { estimatePromptTokens } from "../admission/worst-case.js";
import { preferByok, withByok } from "../byok/plan.js";
import type { AccountProviders } from "../byok/providers.js";
import type { EdgeDeps } from "../deps.js";
import { clientAbortSignal } from "../middleware/client-signal.js";
import type { Availability } from "../planner/filters.js";
import type { EdgeRuntime } from "../runtime.js";
import { type ChatRequest, requestedMaxTokens } from "../translate/openai/chat-request.js";
import { promptText } from "../translate/openai/prompt-text.js";
import { admitPlanned } from "./admit-planned.js";
import type { ChatContext } from "./context.js";
import { planFor } from "./plan-for.js";
import { respondJson } from "./respond-json.js";
import { respondStream } from "./respond-stream.js";
import type { Surface } from "./surface.js";

const NO_BYOK: AccountProviders = new Map();

/** What every inference request has before its body is read: an id, a start time, a disconnect signal. */
export interface RequestStart {
  generationId: string;
  startedAt: number;
  signal: AbortSignal;
}

export function startRequest(runtime: EdgeRuntime, response: Response): RequestStart {
  const startedAt = runtime.now();
  const generationId = newGenerationId(startedAt);
  response.setHeader("X-Generation-Id", generationId);
  return { generationId, startedAt, signal: clientAbortSignal(response) };
}

export interface Inference {
  start: RequestStart;
  principal: Principal;
  /** The request in canonical (OpenAI chat) form, whatever surface it arrived on. */
  request: ChatRequest;
  surface: Surface;
  availability: (providerId: string) => Availability;
}

/**
 * The hot path shared by every chat-like surface (ARCHITECTURE "The hot path"): plan from the
 * in-memory catalogue (the key's allow-lists apply) → one Admit → providers in plan order → the
 * surface renders the answer → meter.
 */
export async function serveInference(
  deps: EdgeDeps,
  runtime: EdgeRuntime,
  inference: Inference,
  response: Response,
): Promise<void> {
  const { request, principal, start } = inference;
  const byok = deps.byok ? await deps.byok.forAccount(principal.accountId) : NO_BYOK;
  const plan = planFor(deps, runtime, { ...inference, availability: withByok(inference.availability, byok) });
  const attempts = preferByok(plan.attempts, byok);
  const prompt = promptText(request);
  const hold = await admitPlanned(deps, {
    leases: runtime.leases,
    generationId: start.generationId,
    principal,
    requestedModel: request.model,
    attempts,
    worstCase: {
      promptTokens: estimatePromptTokens(prompt),
      maxTokens: requestedMaxTokens(request),
      choices: request.n ?? 1,
      imageCount: prompt.imageCount,
    },
  });
  const context: ChatContext = {
    generationId: start.generationId,
    principal,
    request,
    prompt,
    attempts,
    hold,
    startedAt: start.startedAt,
    signal: start.signal,
    surface: inference.surface,
  };
  if (request.stream === true) await respondStream(response, context, runtime.pipeline);
  else await respondJson(response, context, runtime.pipeline);
}
