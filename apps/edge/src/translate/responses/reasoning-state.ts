import { DEFAULT_MAX_JSON_DEPTH, exceedsDepth } from "@gw/http";

type Json = Record<string, unknown>;

// Providers need their own reasoning back on the next turn (Anthropic's signed thinking blocks on
// tool-use turns, Gemini's thought signatures on function calls). The canonical form carries them as
// OpenRouter's `reasoning_details`; a stateless Responses API hands them to the client inside a
// reasoning item's `encrypted_content` and reads them back from the input. The content is opaque to
// the client, tagged so that another service's encrypted content is recognised and left alone.

const PREFIX = "gw-rd1.";

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reasoning details as a reasoning item's `encrypted_content`. */
export function encodeReasoningDetails(details: readonly Json[]): string {
  return PREFIX + Buffer.from(JSON.stringify(details), "utf8").toString("base64url");
}

/**
 * The reasoning details inside an `encrypted_content` this gateway wrote; anything else (another
 * service's encrypted reasoning, a tampered value) carries nothing the providers here could use.
 */
export function decodeReasoningDetails(value: unknown): Json[] {
  if (typeof value !== "string" || !value.startsWith(PREFIX)) return [];
  try {
    const text = Buffer.from(value.slice(PREFIX.length), "base64url").toString("utf8");
    // The client hands this back: deeper than this gateway writes is not ours (issue 33's depth class).
    if (exceedsDepth(text, DEFAULT_MAX_JSON_DEPTH)) return [];
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter(isRecord) : [];
  } catch {
    return [];
  }
}

/**
 * Streamed reasoning details arrive in fragments (a thinking block's text piece by piece, then its
 * signature): consecutive `reasoning.text` fragments of one format join until one carries the
 * signature that ends the block. Whole entries (encrypted ones, Gemini's signatures) stay as they
 * are. Merging merged details changes nothing.
 */
export function mergeReasoningDetails(fragments: readonly Json[]): Json[] {
  const merged: Json[] = [];
  for (const fragment of fragments) {
    const last = merged.at(-1);
    const joins =
      last !== undefined &&
      fragment.type === "reasoning.text" &&
      last.type === "reasoning.text" &&
      last.format === fragment.format &&
      typeof last.signature !== "string";
    if (!joins) {
      merged.push({ ...fragment });
      continue;
    }
    const text = `${typeof last.text === "string" ? last.text : ""}${typeof fragment.text === "string" ? fragment.text : ""}`;
    Object.assign(last, fragment, { text });
  }
  return merged;
}

/** The reasoning details of a message or delta, when it has any. */
export function detailsOf(message: Json): Json[] {
  return Array.isArray(message.reasoning_details) ? message.reasoning_details.filter(isRecord) : [];
}
