import type { Request, Response } from "express";
import { parseChatRequest } from "../canonical/chat-request.js";
import { resolveApiKey } from "../middleware/api-key.js";
import type { EdgeContext } from "../pipeline/edge-context.js";
import { serveInference, startRequest } from "../pipeline/serve.js";
import { endStage } from "../pipeline/server-timing.js";
import { forwardedHeaders, withNativeRequest } from "../providers/native.js";
import { CHAT_SURFACE } from "../translate/openai/chat-stream.js";
import type { Route } from "./route.js";

/**
 * POST /v1/chat/completions (and /api/v1/…, OpenRouter's base URL, so one base URL serves inference
 * and management): the OpenAI surface of the shared hot path.
 */
export function chatCompletionsRoute(context: EdgeContext): Route {
  const handler = async (request: Request, response: Response): Promise<void> => {
    const start = startRequest(context, response);
    // Who is asking comes before what is asked: a caller without a valid key learns nothing about
    // the request schema (401 before 400), as the providers' own APIs behave.
    const principal = await resolveApiKey(context.principals, request);
    endStage(start.signal, "auth");
    const body = parseChatRequest(request.body);
    // The canonical form is this format: an OpenAI-compatible host gets the body (and OpenAI-Beta) as sent.
    withNativeRequest(body, {
      format: "openai",
      body: request.body as Record<string, unknown>,
      headers: forwardedHeaders(request.headers, "openai"),
    });
    endStage(start.signal, "parse");
    await serveInference(context, { start, principal, request: body, surface: CHAT_SURFACE }, response);
  };
  return { method: "post", path: ["/v1/chat/completions", "/api/v1/chat/completions"], handlers: [handler] };
}
