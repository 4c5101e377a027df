import type { IncomingHttpHeaders } from "node:http";

/** RFC 9110 §7.6.1 connection-specific headers, never forwarded either way. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/**
 * Never sent to a provider: every form of the caller's gateway key (the provider gets our credential
 * instead), cookies, framing the pool sets itself, and accept-encoding (the usage scanner reads the
 * body, so it must arrive uncompressed).
 */
const REQUEST_DROPPED = new Set([
  "host",
  "content-length",
  "authorization",
  "x-api-key",
  "x-goog-api-key",
  "api-key",
  "cookie",
  "accept-encoding",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "forwarded",
]);

/** Never returned to the caller: framing Node sets itself and what names the gateway's provider account. */
const RESPONSE_DROPPED = new Set([
  "content-length",
  "set-cookie",
  "openai-organization",
  "openai-project",
  "anthropic-organization-id",
  "x-goog-api-key",
]);

export function forwardedRequestHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || REQUEST_DROPPED.has(name)) continue;
    kept[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return kept;
}

export function returnedResponseHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || RESPONSE_DROPPED.has(name)) continue;
    kept[name] = value;
  }
  return kept;
}

/** The caller's gateway key may also ride in `?key=` (Gemini's convention); it never reaches the provider. */
export function withoutKeyParam(pathAndQuery: string): string {
  const question = pathAndQuery.indexOf("?");
  if (question === -1) return pathAndQuery;
  const params = new URLSearchParams(pathAndQuery.slice(question + 1));
  params.delete("key");
  const query = params.toString();
  return query === "" ? pathAndQuery.slice(0, question) : `${pathAndQuery.slice(0, question)}?${query}`;
}
