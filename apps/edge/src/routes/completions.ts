import type { Request, Response } from "express";
import { splitPluginFields } from "../canonical/plugins.js";
import { resolveApiKey } from "../middleware/api-key.js";
import type { EdgeContext } from "../pipeline/edge-context.js";
import { serveInference, startRequest } from "../pipeline/serve.js";
import { chatRequestFromCompletions, parseCompletionsRequest } from "../translate/completions/request.js";
import { COMPLETIONS_SURFACE } from "../translate/completions/response.js";
import type { Route } from "./route.js";

/**
 * POST /v1/completions (and /api/v1/completions): OpenAI's legacy prompt API, served through chat on
 * every provider and answered in the text_completion shape (see translate/completions/request.ts).
 */
export function completionsRoute(context: EdgeContext): Route {
  const handler = async (request: Request, response: Response): Promise<void> => {
    const start = startRequest(context, response);
    const principal = await resolveApiKey(context.principals, request);
    // OpenRouter's plugins and transforms are the chat request's (the legacy schema is strict).
    const split = splitPluginFields(request.body);
    const body = { ...chatRequestFromCompletions(parseCompletionsRequest(split.body)), ...split.fields };
    await serveInference(
      context,
      { start, principal, request: body, surface: COMPLETIONS_SURFACE },
      response,
    );
  };
  return { method: "post", path: ["/v1/completions", "/api/v1/completions"], handlers: [handler] };
}
