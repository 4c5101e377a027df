import { anthropicErrorBody, geminiErrorBody, openAiErrorBody } from "@gw/errors";
import type { ErrorRenderer } from "@gw/http";
import type { Request } from "express";

export type ErrorShape = "openai" | "anthropic" | "gemini";

/** Gemini's method paths (`/v1beta/models/m:generateContent`, and `/v1/…` as @google/genai 3 calls it). */
export function isGeminiPath(path: string): boolean {
  return path.startsWith("/v1beta/") || /^\/v1\/models\/.+:[A-Za-z]+$/.test(decodedOrRaw(path));
}

/**
 * The path decoded, or as sent when it does not decode (`%80`): this runs while rendering an error,
 * often the malformed-URL refusal itself, and must not throw there (express then answered in HTML).
 */
function decodedOrRaw(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** Which surface's error body a request gets: decided by its path (and, for /v1/models, the header). */
export function errorShape(request: Pick<Request, "path" | "headers">): ErrorShape {
  const path = request.path;
  // The provider proxy answers in its provider's own shape.
  if (path.startsWith("/anthropic/")) return "anthropic";
  if (path.startsWith("/google/")) return "gemini";
  if (path === "/v1/messages" || path.startsWith("/v1/messages/")) return "anthropic";
  if (isGeminiPath(path)) return "gemini";
  if (path.startsWith("/v1/models") && request.headers["anthropic-version"] !== undefined) return "anthropic";
  if (path.startsWith("/v1/models") && request.headers["x-goog-api-key"] !== undefined) return "gemini";
  return "openai";
}

/** Every error in the shape of the surface that was called (api-decisions: Errors). */
export const renderSurfaceError: ErrorRenderer = (error, response) => {
  const shape = errorShape(response.req);
  if (shape === "anthropic") {
    // Anthropic's error body always carries request_id (its SDK surfaces it): ours is the generation id
    // when one was assigned, else the request's id (x-request-id, set on every response before auth), so
    // a refusal before admission (a bad key on /v1/messages) names an id the logs can be searched for.
    const id = response.getHeader("X-Generation-Id") ?? response.getHeader("x-request-id");
    return anthropicErrorBody(error, typeof id === "string" ? id : undefined);
  }
  if (shape === "gemini") return geminiErrorBody(error);
  return openAiErrorBody(error);
};
