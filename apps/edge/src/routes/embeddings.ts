import type { Request, Response } from "express";
import type { EdgeDeps } from "../deps.js";
import { resolveApiKey } from "../middleware/api-key.js";
import { embeddingsAvailability } from "../pipeline/availability.js";
import { serveEmbeddings } from "../pipeline/embed.js";
import { startRequest } from "../pipeline/serve.js";
import type { EdgeRuntime } from "../runtime.js";
import {
  embedRequestFromOpenAi,
  parseEmbeddingsRequest,
  renderEmbeddings,
} from "../translate/openai/embeddings.js";
import type { Route } from "./route.js";

/** POST /v1/embeddings: float or base64 vectors from any provider with an embeddings API. */
export function embeddingsRoute(deps: EdgeDeps, runtime: EdgeRuntime): Route {
  const availability = embeddingsAvailability(deps.providers);
  const handler = async (request: Request, response: Response): Promise<void> => {
    const start = startRequest(runtime, response);
    const principal = await resolveApiKey(deps.principals, request);
    const body = parseEmbeddingsRequest(request.body);
    await serveEmbeddings(
      deps,
      runtime,
      {
        start,
        principal,
        request: embedRequestFromOpenAi(body),
        availability,
        apiType: "embeddings",
        render: renderEmbeddings(body.encoding_format ?? "float"),
      },
      response,
    );
  };
  return { method: "post", path: "/v1/embeddings", handlers: [handler] };
}
