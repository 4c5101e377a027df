import type { Request, Response } from "express";
import type { EdgeDeps } from "../deps.js";
import { resolveApiKey } from "../middleware/api-key.js";
import { chatAvailability } from "../pipeline/availability.js";
import { planFor } from "../pipeline/plan-for.js";
import type { EdgeRuntime } from "../runtime.js";
import { chatRequestFromMessages, parseCountTokensRequest } from "../translate/anthropic/messages-request.js";
import { promptText } from "../translate/openai/prompt-text.js";
import { translating } from "../translate/untranslatable.js";
import { estimateUsage } from "../usage/estimate.js";
import { withNativeModels } from "./messages.js";
import type { Route } from "./route.js";

/**
 * POST /v1/messages/count_tokens: the prompt counted with the gateway's tokenizer (the same count
 * admission uses), for any model the key may call. Counting calls no provider and is not metered.
 */
export function countTokensRoute(deps: EdgeDeps, runtime: EdgeRuntime): Route {
  const availability = chatAvailability(deps.providers);
  const handler = async (request: Request, response: Response): Promise<void> => {
    const principal = await resolveApiKey(deps.principals, request);
    const body = parseCountTokensRequest(request.body);
    const chat = withNativeModels(
      deps,
      translating(() => chatRequestFromMessages(body)),
      ["anthropic"],
    );
    planFor(deps, runtime, { principal, request: chat, availability });
    const usage = await estimateUsage(promptText(chat), []);
    response.json({ input_tokens: usage.promptTokens });
  };
  return { method: "post", path: "/v1/messages/count_tokens", handlers: [handler] };
}
