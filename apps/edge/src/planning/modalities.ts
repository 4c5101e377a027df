import type { ChatRequest } from "../canonical/chat-request.js";
import type { Endpoint, Model } from "../catalog/snapshot.js";
import { mediaParts } from "../translate/media-support.js";

/**
 * The input modalities beyond text a chat request needs: `image` for an image part (a PDF, a text file
 * or audio has no catalogue modality to match yet). Read once per request by the planner.
 */
export function requestedModalities(request: ChatRequest): readonly string[] {
  let parts: ReturnType<typeof mediaParts>;
  try {
    parts = mediaParts(request);
  } catch {
    return []; // a malformed part is refused by the translation, naming it
  }
  return parts.some(({ piece }) => piece.kind === "image" || piece.kind === "image-url") ? ["image"] : [];
}

/**
 * The catalogue's input modalities of a model, as GET /api/v1/models publishes them
 * (packages/catalog model-object.ts `architecture`): text, and image where an endpoint prices input images.
 */
export function modelInputModalities(model: Pick<Model, "endpoints">): readonly string[] {
  const takesImages = model.endpoints.some((endpoint: Endpoint) => (endpoint.pricing?.imagePico ?? 0n) > 0n);
  return takesImages ? ["text", "image"] : ["text"];
}

/**
 * Attempts whose model the catalogue lists as taking every modality the request needs come first, the
 * rest after in their own order (stable): a model may take images the catalogue does not price, so
 * it stays a fallback rather than being excluded.
 */
export function preferModalities<T extends { model: Pick<Model, "endpoints"> }>(
  attempts: readonly T[],
  needed: readonly string[],
): T[] {
  if (needed.length === 0) return [...attempts];
  const takes = (attempt: T) => {
    const modalities = modelInputModalities(attempt.model);
    return needed.every((modality) => modalities.includes(modality));
  };
  return [...attempts.filter(takes), ...attempts.filter((attempt) => !takes(attempt))];
}
