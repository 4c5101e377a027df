import type { Request, Response } from "express";
import type { EdgeDeps } from "../deps.js";
import { resolveApiKey } from "../middleware/api-key.js";
import { chatAvailability } from "../pipeline/availability.js";
import { serveInference, startRequest } from "../pipeline/serve.js";
import { nativeModelId } from "../planner/native-model.js";
import type { EdgeRuntime } from "../runtime.js";
import { chatRequestFromMessages, parseMessagesRequest } from "../translate/anthropic/messages-request.js";
import { MESSAGES_SURFACE } from "../translate/anthropic/messages-response.js";
import type { ChatRequest } from "../translate/openai/chat-request.js";
import { translating } from "../translate/untranslatable.js";
import type { Route } from "./route.js";

const NATIVE_AUTHORS = ["anthropic"];

/** A native model name (`claude-sonnet-4`, dated, or a full id) → our catalogue id, fallbacks too. */
export function withNativeModels(deps: EdgeDeps, chat: ChatRequest, authors: readonly string[]): ChatRequest {
  const snapshot = deps.catalog.require();
  const resolved: ChatRequest = { ...chat, model: nativeModelId(snapshot, chat.model, authors) };
  if (chat.models) resolved.models = chat.models.map((name) => nativeModelId(snapshot, name, authors));
  return resolved;
}

/**
 * POST /v1/messages: the Anthropic surface of the shared hot path. Any provider can serve it; the
 * request is translated to the canonical form and the answer rendered back as a Message or events.
 */
export function messagesRoute(deps: EdgeDeps, runtime: EdgeRuntime): Route {
  const availability = chatAvailability(deps.providers);
  const handler = async (request: Request, response: Response): Promise<void> => {
    const start = startRequest(runtime, response);
    const principal = await resolveApiKey(deps.principals, request);
    const body = parseMessagesRequest(request.body);
    const chat = withNativeModels(
      deps,
      translating(() => chatRequestFromMessages(body)),
      NATIVE_AUTHORS,
    );
    await serveInference(
      deps,
      runtime,
      { start, principal, request: chat, surface: MESSAGES_SURFACE, availability },
      response,
    );
  };
  return { method: "post", path: "/v1/messages", handlers: [handler] };
}
