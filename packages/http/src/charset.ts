import type { IncomingMessage } from "node:http";
import { GatewayError } from "@gw/errors";

/** The one charset a body is read in: UTF-8, under either of its names. */
const READABLE = new Set(["utf-8", "utf8"]);

/**
 * The `charset` parameter of a request's Content-Type, lower-cased and unquoted; undefined without one.
 * A parameter is `name=value` or `name="value"` after a `;` (RFC 9110 §5.6.6); a quoted value may hold
 * `;`, so this walks the text instead of splitting it.
 */
export function requestCharset(request: IncomingMessage): string | undefined {
  const type = request.headers["content-type"];
  if (type === undefined) return undefined;
  const pattern = /;\s*([^=;\s]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/g;
  for (const match of type.matchAll(pattern)) {
    if (match[1]?.toLowerCase() !== "charset") continue;
    const value = match[2] === undefined ? (match[3] ?? "") : match[2].replace(/\\(.)/g, "$1");
    return value.trim().toLowerCase();
  }
  return undefined;
}

/**
 * A 400 naming the charset when a body declares one other than UTF-8, else undefined. Checked before a
 * byte is read, so every size, depth and content check that follows sees exactly the text the routes
 * get: a depth check on the raw bytes of a UTF-7 or UTF-16 body (decoded only afterwards) let a body of
 * 20,000 levels through to the routes' recursive code (issue 33). Refused rather than decoded: no client
 * of an LLM API sends another charset, and every one decoded is another way to disguise a bracket.
 * A 400 (not 415): the catalogue's kinds map one status each, and a 415 kind would also change how a
 * provider's own 415 is relayed. Its code is the one an unknown charset always had here
 * (`unsupported_encoding`), so callers that handle it keep working; `metadata.charset` names it.
 */
export function unreadableCharset(request: IncomingMessage): GatewayError | undefined {
  const charset = requestCharset(request);
  if (charset === undefined || READABLE.has(charset)) return undefined;
  const shown = JSON.stringify(charset.slice(0, 40));
  return new GatewayError(
    "invalid_request",
    `request body charset ${shown} is not supported: send the body as UTF-8`,
    { code: "unsupported_encoding", metadata: { charset: charset.slice(0, 40) } },
  );
}
