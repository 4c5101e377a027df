import type { Request, Response } from "express";
import type { EdgeDeps } from "../deps.js";
import { resolveApiKey } from "../middleware/api-key.js";
import { chatAvailability } from "../pipeline/availability.js";
import { serveInference, startRequest } from "../pipeline/serve.js";
import type { EdgeRuntime } from "../runtime.js";
import { parseChatRequest } from "../translate/openai/chat-request.js";
import { CHAT_SURFACE } from "../translate/openai/chat-stream.js";
import type { Route } from "./route.js";

/** POST /v1/chat/completions: the OpenAI surface of the shared hot path. */
export function chatCompletionsRoute(deps: EdgeDeps, runtime: EdgeRuntime): Route {
  const availability = chatAvailability(deps.providers);
  const handler = async (request: Request, response: Response): Promise<void> => {
    const start = startRequest(runtime, response);
    // Who is asking comes before what is asked: a caller without a valid key learns nothing about
    // the request schema (401 before 400), as the providers' own APIs behave.
    const principal = await resolveApiKey(deps.principals, request);
    const body = parseChatRequest(request.body);
    await serveInference(
      deps,
      runtime,
      { start, principal, request: body, surface: CHAT_SURFACE, availability },
      response,
    );
  };
  return { method: "post", path: "/v1/chat/completions", handlers: [handler] };
}
