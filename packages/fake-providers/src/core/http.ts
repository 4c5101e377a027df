import type { IncomingMessage, ServerResponse } from "node:http";

const MAX_BODY_BYTES = 32 * 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    // Far above anything a test sends; a guard against a runaway client, not an API limit.
    if (size > MAX_BODY_BYTES) throw new Error("request body too large for the fake provider");
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export type ParsedBody =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly raw: string };

export function parseJsonBody(raw: string): ParsedBody {
  if (raw.trim() === "") return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch {
    return { ok: false, raw };
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  contentType = "application/json",
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "content-type": contentType,
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

/** Resolves after `ms`, or early (with false) when the client goes away. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Resolves when the client goes away (or the server shuts down). */
export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

/** Writes and waits until the bytes reach the socket, so a following drop cannot swallow them. */
export function writeFlushed(res: ServerResponse, chunk: string | Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    res.write(chunk, (error) => (error ? reject(error) : resolve()));
  });
}
