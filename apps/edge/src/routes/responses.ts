import type { Request, Response } from "express";
import { splitPluginFields } from "../canonical/plugins.js";
import { resolveApiKey } from "../middleware/api-key.js";
import type { EdgeContext } from "../pipeline/edge-context.js";
import { serveInference, startRequest } from "../pipeline/serve.js";
import { chatRequestFromResponses, responsesEcho } from "../translate/responses/request.js";
import { parseResponsesRequest } from "../translate/responses/request-schema.js";
import { responsesSurface } from "../translate/responses/surface.js";
import { translating } from "../translate/untranslatable.js";
import type { Route } from "./route.js";

/**
 * POST /v1/responses (and /api/v1/responses): OpenAI's Responses API, stateless as OpenRouter's.
 * The request is translated to the canonical chat form, so any provider serves it through the same
 * planning, admission, failover and metering as chat; the answer is rendered as a Response object or
 * the Responses stream events, metered as api_type "responses".
 */
export function responsesRoute(context: EdgeContext): Route {
  const handler = async (request: Request, response: Response): Promise<void> => {
    const start = startRequest(context, response);
    const principal = await resolveApiKey(context.principals, request);
    // OpenRouter's plugins and transforms are the chat request's (the Responses schema is strict).
    const split = splitPluginFields(request.body);
    const body = parseResponsesRequest(split.body);
    const chat = { ...translating(() => chatRequestFromResponses(body)), ...split.fields };
    const surface = responsesSurface(responsesEcho(body));
    await serveInference(context, { start, principal, request: chat, surface }, response);
  };
  return { method: "post", path: ["/v1/responses", "/api/v1/responses"], handlers: [handler] };
}
