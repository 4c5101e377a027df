import type { IncomingMessage } from "node:http";
import { GuardedFetchRefused } from "./refusal.js";

// What a final (non-redirect) response must be to count as the media: 200, uncompressed, a content type
// the target takes, and no more bytes than the cap. Content-Length is read first so an honest oversized
// answer is refused before its body, but it is never trusted: the body is counted as it arrives and
// the socket is cut the moment the count passes the cap, whatever the header said.

export interface ResponseLimits {
  maxBytes: number;
  allowedContentTypes: readonly string[];
}

/** The media type of a Content-Type header: lower-case, without parameters; "" when there is none. */
export function mediaType(header: string | undefined): string {
  return (header ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/** `type/*` in the allowed list takes every subtype of that type; anything else must match exactly. */
export function contentTypeAllowed(type: string, allowed: readonly string[]): boolean {
  return allowed.some((entry) => {
    const wanted = entry.trim().toLowerCase();
    return wanted.endsWith("/*")
      ? type.startsWith(wanted.slice(0, -1)) && type.length > wanted.length - 1
      : type === wanted;
  });
}

/**
 * Checks the head, then reads the body under the cap; a refusal's reason is `origin` and what it did
 * wrong ("http://x answered HTTP 404, not 200").
 */
export async function readMedia(
  response: IncomingMessage,
  origin: string,
  limits: ResponseLimits,
): Promise<{ bytes: Uint8Array; contentType: string }> {
  try {
    const contentType = checkHead(response, limits);
    return { bytes: await readCapped(response, limits.maxBytes), contentType };
  } catch (error) {
    response.destroy();
    throw new GuardedFetchRefused(`${origin} ${(error as Error).message}`);
  }
}

/** What a response did wrong, as the end of a sentence that starts with its origin. */
class ResponseProblem extends Error {}

function checkHead(response: IncomingMessage, limits: ResponseLimits): string {
  if (response.statusCode !== 200) throw new ResponseProblem(`answered HTTP ${response.statusCode}, not 200`);
  const encoding = (response.headers["content-encoding"] ?? "identity").trim().toLowerCase();
  if (encoding !== "identity")
    throw new ResponseProblem(`sent a ${encoding}-encoded body, though only identity was accepted`);
  const type = mediaType(response.headers["content-type"]);
  const expected = limits.allowedContentTypes.join(", ");
  if (type === "") throw new ResponseProblem(`answered without a content type (expected one of ${expected})`);
  if (!contentTypeAllowed(type, limits.allowedContentTypes))
    throw new ResponseProblem(`answered with content type "${type}", not one of ${expected}`);
  const declared = Number(response.headers["content-length"] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limits.maxBytes)
    throw new ResponseProblem(
      `declared a ${declared}-byte body, more than the ${limits.maxBytes}-byte limit`,
    );
  return type;
}

function readCapped(response: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const fail = (problem: ResponseProblem) => {
      if (settled) return;
      settled = true;
      response.destroy();
      reject(problem);
    };
    response.on("data", (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) return fail(new ResponseProblem(`sent more than the ${maxBytes}-byte limit`));
      chunks.push(chunk);
    });
    response.once("end", () => {
      if (total === 0) return fail(new ResponseProblem("sent an empty body"));
      if (settled) return;
      settled = true;
      resolve(joined(chunks, total));
    });
    // A connection closed mid-body (fewer bytes than Content-Length said) or a malformed chunk.
    response.once("error", () =>
      fail(new ResponseProblem("closed the connection before the body was complete")),
    );
    response.once("close", () => {
      if (!response.complete) fail(new ResponseProblem("closed the connection before the body was complete"));
    });
  });
}

/** One copy into a fresh array (not a view into node's shared buffer pool). */
function joined(chunks: readonly Buffer[], total: number): Uint8Array {
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}
