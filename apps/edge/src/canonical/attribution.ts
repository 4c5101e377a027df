import type { IncomingHttpHeaders } from "node:http";
import type { UsageAttribution } from "@gw/events";

export type Attribution = UsageAttribution;

const MAX_REFERER = 512;
const MAX_TITLE = 128;
const MAX_USER_AGENT = 512;
const MAX_EXTERNAL_USER = 128;
/** Control characters (C0, DEL, C1): a title is shown in lists and logs, never a terminal escape. */
function hasControl(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

/**
 * OpenRouter's app attribution: `HTTP-Referer` (the app's URL; its origin identifies the app) and
 * `X-Title`, which `@openrouter/sdk` sends as `X-OpenRouter-Title`, plus the `User-Agent` (OpenRouter's
 * generation record keeps it as `user_agent`). Attribution is optional metadata, so a value that is not
 * valid (not an absolute http(s) URL, too long, control characters) is dropped rather than failing the
 * request, as OpenRouter ignores it. Undefined when nothing valid was sent.
 */
export function attributionOf(headers: IncomingHttpHeaders | undefined): Attribution | undefined {
  if (!headers) return undefined;
  const httpReferer = refererOf(single(headers["http-referer"]));
  const appTitle = titleOf(single(headers["x-title"]) ?? single(headers["x-openrouter-title"]));
  const userAgent = boundedText(single(headers["user-agent"]), MAX_USER_AGENT);
  if (httpReferer === "" && appTitle === "" && userAgent === "") return undefined;
  return { httpReferer, appTitle, userAgent };
}

/**
 * The request's end-user id as OpenRouter's `external_user`: OpenAI's and OpenRouter's `user` (a string
 * the caller picks to tell its own users apart). Like attribution, an invalid one is dropped, not refused.
 */
export function externalUserOf(user: unknown): string | undefined {
  const text = typeof user === "string" ? boundedText(user, MAX_EXTERNAL_USER) : "";
  return text === "" ? undefined : text;
}

function boundedText(value: string | undefined, max: number): string {
  const text = value?.trim() ?? "";
  return text.length > max || hasControl(text) ? "" : text;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function refererOf(value: string | undefined): string {
  if (value === undefined || value.length > MAX_REFERER || hasControl(value)) return "";
  if (!URL.canParse(value)) return "";
  const url = new URL(value);
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username !== "" || url.password !== "") {
    return "";
  }
  // Origin and path only: a query or fragment may carry a token, and the app is its origin anyway.
  return `${url.origin}${url.pathname}`;
}

function titleOf(value: string | undefined): string {
  return boundedText(value, MAX_TITLE);
}
