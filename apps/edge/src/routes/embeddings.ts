import type { Request, Response } from "express";
import { resolveApiKey } from "../middleware/api-key.js";
import type { EdgeContext } from "../pipeline/edge-context.js";
import { serveEmbeddings } from "../pipeline/embed.js";
import { startRequest } from "../pipeline/serve.js";
import {
  embedRequestFromOpenAi,
  parseEmbeddingsRequest,
  renderEmbeddings,
} from "../translate/openai/embeddings.js";
import type { Route } from "./route.js";

/** POST /v1/embeddings: float or base64 vectors from any provider with an embeddings API. */
export function embeddingsRoute(context: EdgeContext): Route {
  const handler = async (request: Request, response: Response): Promise<void> => {
    const start = startRequest(context, response);
    const principal = await resolveApiKey(context.principals, request);
    const body = parseEmbeddingsRequest(request.body);
    await serveEmbeddings(
      context,
      {
        start,
        principal,
        request: embedRequestFromOpenAi(body),
        apiType: "embeddings",
        render: renderEmbeddings(body.encoding_format ?? "float"),
      },
      response,
    );
  };
  return { method: "post", path: ["/v1/embeddings", "/api/v1/embeddings"], handlers: [handler] };
}
