import type { Request, Response } from "express";
import { promptText } from "../canonical/prompt-text.js";
import { resolveApiKey } from "../middleware/api-key.js";
import type { EdgeContext } from "../pipeline/edge-context.js";
import { withNativeModels } from "../planning/native-model.js";
import { translateNative } from "../providers/native.js";
import { chatRequestFromMessages, parseCountTokensRequest } from "../translate/anthropic/messages-request.js";
import { translating } from "../translate/untranslatable.js";
import { estimateUsage } from "../usage/estimate.js";
import type { Route } from "./route.js";

/**
 * POST /v1/messages/count_tokens: the prompt counted with the gateway's tokenizer (the same count
 * admission uses), for any model the key may call. Counting calls no provider and is not metered.
 */
export function countTokensRoute(context: EdgeContext): Route {
  const handler = async (request: Request, response: Response): Promise<void> => {
    const principal = await resolveApiKey(context.principals, request);
    const body = parseCountTokensRequest(request.body);
    const chat = withNativeModels(
      context.catalog.require(),
      // As /v1/messages reads it: what only Anthropic's own API takes is left out of the count, not refused.
      translating(() => translateNative("anthropic", body, chatRequestFromMessages).chat),
      ["anthropic"],
    );
    context.planner.check({ principal, request: chat, kind: "chat" });
    const usage = await estimateUsage(promptText(chat), []);
    response.json({ input_tokens: usage.promptTokens });
  };
  return { method: "post", path: "/v1/messages/count_tokens", handlers: [handler] };
}
