import { connect } from "node:net";

/** One answer as the client saw it; `json` is undefined when the body is not JSON. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: unknown;
}

export interface Call {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** An ordinary client call (fetch), for everything a well-behaved HTTP client can send. */
export async function send(baseUrl: string, call: Call): Promise<Answer> {
  const response = await fetch(`${baseUrl}${call.path}`, {
    method: call.method,
    headers: call.headers ?? {},
    ...(call.body === undefined ? {} : { body: call.body }),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    text,
    json: parseJson(text),
  };
}

export interface RawOptions {
  /** Stop waiting after this long (the suite's own bound: a hang is a failure, not a pass). */
  timeoutMs?: number;
  /** Send the bytes in two parts with this pause between them, the second part never sent when `stall`. */
  splitAt?: number;
  stall?: boolean;
}

/**
 * Writes `bytes` as they are onto a fresh TCP connection and reads the response until the server
 * closes it: for what fetch refuses to send (CR/LF or control bytes in a header, a raw `#` or absolute-form
 * target) and for bodies that arrive slowly or never. Requests should carry `connection: close`.
 */
export function sendRaw(port: number, bytes: Buffer, options: RawOptions = {}): Promise<Answer> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on("connect", () => {
      if (options.splitAt === undefined) {
        socket.write(bytes);
        return;
      }
      socket.write(bytes.subarray(0, options.splitAt));
      if (!options.stall) socket.write(bytes.subarray(options.splitAt));
    });
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      const answer = completeAnswer(Buffer.concat(chunks));
      if (answer) {
        clearTimeout(timer);
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      const answer = completeAnswer(Buffer.concat(chunks), true);
      if (answer) resolve(answer);
      else
        reject(new Error(`connection closed without an answer: ${Buffer.concat(chunks).toString("latin1")}`));
    });
  });
}

/** The response once it has fully arrived (content-length, chunked, or closed), else undefined. */
function completeAnswer(data: Buffer, closed = false): Answer | undefined {
  const end = data.indexOf("\r\n\r\n");
  if (end < 0) return undefined;
  const head = data.subarray(0, end).toString("latin1").split("\r\n");
  const status = Number(head[0]?.split(" ")[1]);
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = data.subarray(end + 4);
  let body: Buffer | undefined;
  if (headers["transfer-encoding"]?.includes("chunked")) body = dechunk(rest);
  else if (headers["content-length"] !== undefined) {
    const length = Number(headers["content-length"]);
    body = rest.length >= length ? rest.subarray(0, length) : undefined;
  } else if (closed) body = rest;
  if (body === undefined) return undefined;
  const text = body.toString("utf8");
  return { status, headers, text, json: parseJson(text) };
}

function dechunk(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = data.indexOf("\r\n", offset);
    if (lineEnd < 0) return undefined;
    const size = Number.parseInt(data.subarray(offset, lineEnd).toString("latin1"), 16);
    if (Number.isNaN(size)) return undefined;
    if (size === 0) return Buffer.concat(parts);
    const start = lineEnd + 2;
    if (data.length < start + size + 2) return undefined;
    parts.push(data.subarray(start, start + size));
    offset = start + size + 2;
  }
}

/** An HTTP/1.1 request as bytes: `headers` are written as given, CR/LF and all. */
export function rawRequest(call: {
  method: string;
  target: string;
  headers: [string, string][];
  body?: Buffer;
  /** Announce this length instead of the body's own (a slow or truncated body). */
  contentLength?: number;
  /** The Host header as written, malformed or not (fetch and node:http refuse to send some). */
  host?: string;
}): Buffer {
  const body = call.body ?? Buffer.alloc(0);
  const lines = [
    `${call.method} ${call.target} HTTP/1.1`,
    `host: ${call.host ?? "127.0.0.1"}`,
    "connection: close",
  ];
  for (const [name, value] of call.headers) lines.push(`${name}: ${value}`);
  if (call.body !== undefined || call.contentLength !== undefined)
    lines.push(`content-length: ${call.contentLength ?? body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1"), body]);
}
