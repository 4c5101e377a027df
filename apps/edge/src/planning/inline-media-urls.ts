import type { ChatMessage, ChatRequest } from "../canonical/chat-request.js";
import { type MediaFetcher, MediaFetchRefused } from "../media/fetcher.js";
import { nativeRequestOf, withNativeRequest } from "../providers/native.js";
import type { ApiFormat } from "../providers/types.js";
import { mediaSupport } from "../translate/media-support.js";
import { describePiece, mediaPiece } from "../translate/openai/media-parts.js";

/**
 * The sentence a fetcher's refusal gives (the guarded fetcher's GuardedFetchRefused is one, and its
 * `reason` names scheme and host only); any other error is not a refusal the caller can act on.
 */
function refusalReason(error: unknown): string | undefined {
  return error instanceof MediaFetchRefused ? error.reason : undefined;
}

/** A media part whose URL the target needs as bytes and that could not be fetched; names the part. */
export class MediaPartRefused extends Error {}

/**
 * Whether a provider of `format` receives the caller's native body as written (Anthropic's, Gemini's):
 * an OpenAI-compatible host is sent the canonical request, which is the chat body itself.
 */
export function sentAsWritten(native: ApiFormat | undefined, format: ApiFormat): boolean {
  return native === format && format !== "openai";
}

type Part = ChatMessage extends { content?: infer C } ? Extract<C, unknown[]>[number] : never;

/**
 * The request with each media URL that `format` needs as bytes (Gemini's inlineData, Bedrock, OpenAI
 * chat's `file_data`) fetched by `fetch` and carried as a base64 data: URL; the same request when there
 * is none. A URL the target fetches itself (OpenAI's image_url, Anthropic's url sources) is left as
 * sent. A same-format native body is sent as written, so nothing is fetched for it (except on the
 * OpenAI format, whose wire body is built from the canonical request). A refused fetch is
 * a MediaPartRefused naming the part (the caller's 400, untranslatable_request: planner.ts).
 */
/**
 * The most media URLs one attempt fetches. Each fetch may hold up to MEDIA_FETCH_MAX_BYTES in memory,
 * so without a count a single request listing thousands of URLs would make the edge download them all
 * at once. 20 is the most images any target here takes as bytes in one request (Bedrock Converse).
 */
export const MAX_FETCHED_MEDIA = 20;

export async function inlineMediaUrls(
  request: ChatRequest,
  format: ApiFormat,
  fetch: MediaFetcher,
): Promise<ChatRequest> {
  const native = nativeRequestOf(request);
  if (sentAsWritten(native?.format, format)) return request;
  let changed = false;
  const budget = { left: MAX_FETCHED_MEDIA };
  const messages = await Promise.all(
    request.messages.map(async (message, index) => {
      if (!Array.isArray(message.content)) return message;
      const content = await Promise.all(
        message.content.map(async (part, at) => {
          const inlined = await inlinePart(part, `messages[${index}].content[${at}]`, format, fetch, budget);
          if (inlined !== part) changed = true;
          return inlined;
        }),
      );
      return { ...message, content };
    }),
  );
  if (!changed) return request;
  const inlined = { ...request, messages };
  return native ? withNativeRequest(inlined, native) : inlined;
}

async function inlinePart(
  part: Part,
  path: string,
  format: ApiFormat,
  fetch: MediaFetcher,
  budget: { left: number },
): Promise<Part> {
  const piece = mediaPiece(part, path);
  if (piece === undefined || (piece.kind !== "image-url" && piece.kind !== "file-url")) return part;
  const support = mediaSupport(piece, format);
  if (!("fetch" in support)) return part;
  // Counted before the first await: every part's count is taken before any fetch of the request starts.
  if (--budget.left < 0) {
    throw new MediaPartRefused(
      `${describePiece(piece, path)} would be fetched, and the gateway fetches at most ${MAX_FETCHED_MEDIA} media URLs for one request: send the rest as data`,
    );
  }
  let fetched: Awaited<ReturnType<MediaFetcher>>;
  try {
    fetched = await fetch(piece.url, support.fetch);
  } catch (error) {
    const why = refusalReason(error) ?? "the URL could not be fetched";
    throw new MediaPartRefused(`${describePiece(piece, path)} could not be fetched: ${why}`);
  }
  const dataUrl = `data:${fetched.contentType};base64,${Buffer.from(fetched.bytes).toString("base64")}`;
  if (piece.kind === "image-url") {
    const image = typeof part.image_url === "object" && part.image_url !== null ? part.image_url : {};
    return { ...part, image_url: { ...image, url: dataUrl } };
  }
  const file = typeof part.file === "object" && part.file !== null ? part.file : {};
  return { ...part, file: { ...file, file_data: dataUrl } };
}
