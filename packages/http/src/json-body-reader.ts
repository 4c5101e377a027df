import type { IncomingMessage } from "node:http";
import { exceedsDepth } from "./json-depth.js";

/**
 * The common case of a JSON request, read without body-parser: `application/json` (optionally
 * `charset=utf-8`), no content encoding. body-parser's content-type parsing, type-is, iconv decoding
 * and http-errors cost a few percent of the edge's CPU per request; this reads the chunks, joins them
 * once and parses once. Anything else (another charset, gzip, `+json` types) still goes through
 * body-parser, so its behaviour there is unchanged.
 */
export function isPlainJsonRequest(request: IncomingMessage): boolean {
  const encoding = request.headers["content-encoding"];
  if (encoding !== undefined && encoding.toLowerCase() !== "identity") return false;
  const type = request.headers["content-type"];
  if (type === undefined) return false;
  const normalised = type.toLowerCase().replace(/\s+/g, "");
  return normalised === "application/json" || normalised === "application/json;charset=utf-8";
}

/** Whether the request has a body at all (type-is's rule: a length header or chunked encoding). */
export function hasBody(request: IncomingMessage): boolean {
  return (
    request.headers["transfer-encoding"] !== undefined || request.headers["content-length"] !== undefined
  );
}

export type BodyReadFailure = "too_large" | "unreadable";

/**
 * Reads the whole body up to `limit` bytes. Over the limit the rest is still read off (and dropped)
 * before the failure is reported, as body-parser does, so the connection stays usable for the answer.
 */
export function readBody(
  request: IncomingMessage,
  limit: number,
  done: (failure: BodyReadFailure | undefined, body: Buffer | undefined) => void,
): void {
  const chunks: Buffer[] = [];
  let received = 0;
  let tooLarge = false;
  let settled = false;
  const settle = (failure: BodyReadFailure | undefined, body?: Buffer): void => {
    if (settled) return;
    settled = true;
    request.off("data", onData);
    request.off("end", onEnd);
    request.off("error", onError);
    request.off("close", onClose);
    done(failure, body);
  };
  const onData = (chunk: Buffer): void => {
    received += chunk.length;
    if (received > limit) {
      tooLarge = true;
      chunks.length = 0;
      return;
    }
    if (!tooLarge) chunks.push(chunk);
  };
  const onEnd = (): void => {
    if (tooLarge) settle("too_large");
    else settle(undefined, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received));
  };
  const onError = (): void => settle("unreadable");
  // A client that goes away mid-body: no 'end' ever comes.
  const onClose = (): void => {
    if (!request.complete) settle("unreadable");
  };
  request.on("data", onData);
  request.on("end", onEnd);
  request.on("error", onError);
  request.on("close", onClose);
}

/**
 * body-parser's strict JSON: an empty body is `{}`, anything but an object or array is malformed, and
 * (with `maxDepth`) nesting deeper than it is refused before parsing.
 */
export function parseStrictJson(
  body: Buffer,
  maxDepth = Number.POSITIVE_INFINITY,
): { ok: true; value: unknown } | { ok: false; reason: "malformed" | "too_deep" } {
  let text = body.toString("utf8");
  // iconv (behind body-parser) drops a byte-order mark; JSON.parse would reject it.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.length === 0) return { ok: true, value: {} };
  const first = firstNonWhitespace(text);
  if (first !== "{" && first !== "[") return { ok: false, reason: "malformed" };
  if (exceedsDepth(text, maxDepth)) return { ok: false, reason: "too_deep" };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, reason: "malformed" };
  }
}

/** JSON's whitespace (space, tab, LF, CR) only, as body-parser's strict check. */
function firstNonWhitespace(text: string): string {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return text.charAt(index);
  }
  return "";
}

const UNITS: Record<string, number> = { b: 1, kb: 2 ** 10, mb: 2 ** 20, gb: 2 ** 30, tb: 2 ** 40 };

/** `10mb`, `512kb`, `1024` as the `bytes` package reads them (binary units); undefined when unreadable. */
export function parseLimit(limit: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb|tb)?\s*$/i.exec(limit);
  if (!match?.[1]) return undefined;
  return Math.floor(Number(match[1]) * (UNITS[(match[2] ?? "b").toLowerCase()] ?? 1));
}
