import { PROVIDERS } from "@gw/catalog";
import { GatewayError } from "@gw/errors";
import { PROXY_ENDPOINTS_BY_FORMAT } from "../providers/registry.js";

/** The native call's path as it will be sent upstream (decoded once, then re-encoded), and its query. */
export interface ProxyTarget {
  path: string;
  /** "" or "?…", passed on unchanged. */
  query: string;
}

/**
 * The provider proxy forwards only the endpoints on its provider's allow-list (providers/<id>/api.ts),
 * matched on one normalised spelling of the path. Every other spelling a server might read differently
 * is refused first, so no path walks around the list: fragments, `;` parameters, encoded separators,
 * backslashes, escapes that do not decode (or decode to another escape or a control character), empty
 * and dot segments. The match is case-exact: `/v1/FILES` is not `/v1/files`, and it is not on the list.
 */
export function checkProxyPath(
  providerId: string,
  method: "GET" | "POST",
  pathAndQuery: string,
): ProxyTarget {
  const query = pathAndQuery.indexOf("?");
  const rawPath = query < 0 ? pathAndQuery : pathAndQuery.slice(0, query);
  const path = normaliseProxyPath(rawPath);
  const provider = PROVIDERS.find((entry) => entry.id === providerId);
  if (path === undefined || provider === undefined) throw refused(method, rawPath);
  const relative = relativeToBase(path, basePath(provider.defaultBaseUrl));
  const allowed = PROXY_ENDPOINTS_BY_FORMAT[provider.apiFormat].some(
    (endpoint) => endpoint.method === method && endpoint.pattern.test(relative),
  );
  if (!allowed) throw refused(method, rawPath);
  return { path: encodePath(path), query: query < 0 ? "" : pathAndQuery.slice(query) };
}

/** The one spelling of a raw path (decoded once), or undefined when it has another reading. */
export function normaliseProxyPath(raw: string): string | undefined {
  if (!raw.startsWith("/") || /[#;\\]/.test(raw) || /%(?:2f|5c|23|3b|3f|25)/i.test(raw)) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  // Decoded once: an escape left over was encoded twice, and a control character is no path.
  if (decoded.includes("%") || hasControlCharacter(decoded)) return undefined;
  const segments = decoded.slice(1).split("/");
  if (segments.some((segment) => segment === "" || segment === "." || segment === "..")) return undefined;
  return decoded;
}

/**
 * Clients write a native path as their SDK does: with the API base's path (`/v1/chat/completions` at
 * OpenAI, `/openai/v1/…` at Groq) or without it. The allow-lists are written relative to that base.
 */
function relativeToBase(path: string, base: string): string {
  return base !== "" && path.startsWith(`${base}/`) ? path.slice(base.length) : path;
}

function basePath(defaultBaseUrl: string | null): string {
  // The demo provider has no public URL; it is an OpenAI-compatible server under /v1.
  if (defaultBaseUrl === null) return "/v1";
  return new URL(defaultBaseUrl).pathname.replace(/\/+$/, "");
}

/** Segments re-escaped so the upstream reads exactly the path that was matched. */
function encodePath(path: string): string {
  return path
    .split("/")
    .map((segment) => encodeURIComponent(segment).replace(/%3A/gi, ":").replace(/%40/g, "@"))
    .join("/");
}

function refused(method: string, path: string): GatewayError {
  return new GatewayError("permission", `the provider proxy does not forward ${method} ${printable(path)}`, {
    code: "proxy_path_not_allowed",
  });
}

/** The path as it can safely appear in a message: bounded, without control characters. */
function printable(path: string): string {
  const clean = [...path].map((char) => (hasControlCharacter(char) ? "?" : char)).join("");
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
}

function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
