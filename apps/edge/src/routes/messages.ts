import type { Request, Response } from "express";
import { splitPluginFields } from "../canonical/plugins.js";
import { resolveApiKey } from "../middleware/api-key.js";
import type { EdgeContext } from "../pipeline/edge-context.js";
import { serveInference, startRequest } from "../pipeline/serve.js";
import { withNativeModels } from "../planning/native-model.js";
import { forwardedHeaders, translateNative, withNativeRequest } from "../providers/native.js";
import { chatRequestFromMessages, parseMessagesRequest } from "../translate/anthropic/messages-request.js";
import { MESSAGES_SURFACE } from "../translate/anthropic/messages-response.js";
import { translating } from "../translate/untranslatable.js";
import type { Route } from "./route.js";

const NATIVE_AUTHORS = ["anthropic"];

/**
 * POST /v1/messages: the Anthropic surface of the shared hot path. Any provider can serve it; the
 * request is translated to the canonical form and the answer rendered back as a Message or events.
 */
export function messagesRoute(context: EdgeContext): Route {
  const handler = async (request: Request, response: Response): Promise<void> => {
    const start = startRequest(context, response);
    const principal = await resolveApiKey(context.principals, request);
    // OpenRouter documents its plugins on this surface too: they are the chat request's, and an
    // Anthropic endpoint's native body loses them with the gateway's other fields (gateway-fields.ts).
    const split = splitPluginFields(request.body);
    const body = parseMessagesRequest(split.body);
    const translated = translating(() => translateNative("anthropic", body, chatRequestFromMessages));
    const chat = {
      ...withNativeModels(context.catalog.require(), translated.chat, NATIVE_AUTHORS),
      ...split.fields,
    };
    // To an Anthropic endpoint the body goes as sent (providers/anthropic/native-rules.ts).
    withNativeRequest(chat, {
      format: "anthropic",
      body: request.body as Record<string, unknown>,
      headers: forwardedHeaders(request.headers, "anthropic"),
      untranslated: translated.untranslated,
    });
    await serveInference(context, { start, principal, request: chat, surface: MESSAGES_SURFACE }, response);
  };
  return { method: "post", path: "/v1/messages", handlers: [handler] };
}
