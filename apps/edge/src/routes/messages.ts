import type { Request, Response } from "express";
import { resolveApiKey } from "../middleware/api-key.js";
import type { EdgeContext } from "../pipeline/edge-context.js";
import { serveInference, startRequest } from "../pipeline/serve.js";
import { withNativeModels } from "../planning/native-model.js";
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
    const body = parseMessagesRequest(request.body);
    const chat = withNativeModels(
      context.catalog.require(),
      translating(() => chatRequestFromMessages(body)),
      NATIVE_AUTHORS,
    );
    await serveInference(context, { start, principal, request: chat, surface: MESSAGES_SURFACE }, response);
  };
  return { method: "post", path: "/v1/messages", handlers: [handler] };
}
