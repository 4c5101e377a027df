import { endpointInputModalities, type InputModality } from "@gw/catalog";
import { GatewayError } from "@gw/errors";
import type { ChatRequest } from "../canonical/chat-request.js";
import type { Endpoint, Model } from "../catalog/snapshot.js";
import { mediaParts } from "../translate/media-support.js";
import { describePiece, type MediaPiece } from "../translate/openai/media-parts.js";

/** A modality beyond text the request needs, and the first part that needs it (named in a refusal). */
export interface NeededModality {
  modality: Exclude<InputModality, "text">;
  /** `messages[i].content[j]`. */
  path: string;
  /** The part as a refusal names it: `messages[0].content[1] (input_audio wav)`. */
  part: string;
}

function modalityOf(piece: MediaPiece): NeededModality["modality"] {
  if (piece.kind === "image" || piece.kind === "image-url") return "image";
  return piece.kind === "audio" ? "audio" : "file";
}

/**
 * The input modalities beyond text a chat request needs (`image`, `file` for any document part, `audio`),
 * each with the first part that needs it. Read once per request by the planner.
 */
export function requestedModalities(request: ChatRequest): readonly NeededModality[] {
  let parts: ReturnType<typeof mediaParts>;
  try {
    parts = mediaParts(request);
  } catch {
    return []; // a malformed part is refused by the translation, naming it
  }
  const needed = new Map<NeededModality["modality"], NeededModality>();
  for (const { piece, path } of parts) {
    const modality = modalityOf(piece);
    if (!needed.has(modality)) needed.set(modality, { modality, path, part: describePiece(piece, path) });
  }
  return [...needed.values()];
}

type Attempt = { model: Pick<Model, "id">; endpoint: Pick<Endpoint, "inputModalities" | "pricing"> };

function takesAll(attempt: Attempt, needed: readonly NeededModality[]): boolean {
  const modalities = endpointInputModalities(attempt.endpoint);
  return needed.every(({ modality }) => modalities.includes(modality));
}

/**
 * Attempts whose endpoint the catalogue lists as taking every modality the request needs come first, the
 * rest after in their own order (stable): those may still serve an image as text's fallback, and the
 * translation refuses by name what their format cannot carry. When no attempt takes one of the needed
 * modalities at all (by what the catalogue lists), the request is a 400 naming the part, before anything is held: no model asked for
 * (or its fallbacks) reads that input. The `file` refusal is what the pipeline answers by parsing PDFs to
 * text (pipeline/pdf-fallback.ts), as OpenRouter does for any model.
 */
export function preferModalities<T extends Attempt>(
  attempts: readonly T[],
  needed: readonly NeededModality[],
): T[] {
  if (needed.length === 0) return [...attempts];
  for (const want of needed) {
    // An endpoint that lists nothing (a keys app older than the field) is unknown, not text-only.
    const mayTake = (attempt: T) =>
      attempt.endpoint.inputModalities.length === 0 ||
      endpointInputModalities(attempt.endpoint).includes(want.modality);
    if (attempts.some(mayTake)) continue;
    const models = [...new Set(attempts.map((attempt) => attempt.model.id))].join(", ");
    throw new GatewayError(
      "invalid_request",
      `${want.part} cannot be sent to ${models}: the catalogue lists no endpoint of it that reads ${want.modality} input`,
      { code: "untranslatable_request", metadata: { field: want.path, modality: want.modality } },
    );
  }
  return [...attempts.filter((a) => takesAll(a, needed)), ...attempts.filter((a) => !takesAll(a, needed))];
}
