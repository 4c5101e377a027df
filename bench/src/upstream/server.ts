import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { completionBody, DEFAULT_SETTINGS, streamFrames, type UpstreamSettings } from "./responses.js";

export interface BenchUpstream {
  /** Base URL without `/v1`. */
  url: string;
  close(): Promise<void>;
}

/** The bench's own OpenAI-shaped upstream: no recording, no validation beyond what routing needs. */
export async function startUpstream(host: string, port: number): Promise<BenchUpstream> {
  const state = { settings: { ...DEFAULT_SETTINGS } };
  const server = createServer({ keepAliveTimeout: 60_000 }, (request, response) => {
    readBody(request).then(
      (body) => route(request, response, body, state),
      () => response.destroy(),
    );
  });
  server.maxHeadersCount = 200;
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address() as AddressInfo;
  return { url: `http://${host}:${address.port}`, close: () => close(server) };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.once("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    request.once("error", reject);
  });
}

async function route(
  request: IncomingMessage,
  response: ServerResponse,
  body: string,
  state: { settings: UpstreamSettings },
): Promise<void> {
  const path = (request.url ?? "").split("?")[0];
  if (path === "/__bench/config" && request.method === "POST") {
    state.settings = { ...DEFAULT_SETTINGS, ...(JSON.parse(body) as Partial<UpstreamSettings>) };
    return json(response, 200, Buffer.from(JSON.stringify(state.settings)));
  }
  if (path === "/healthz") return json(response, 200, Buffer.from("{}"));
  if (path !== "/v1/chat/completions" || request.method !== "POST") {
    return json(response, 404, Buffer.from('{"error":{"message":"not found"}}'));
  }
  const parsed = parseChat(body);
  if (!parsed) return json(response, 400, Buffer.from('{"error":{"message":"bad json"}}'));
  const settings = state.settings;
  if (settings.delayMs > 0) await sleep(settings.delayMs);
  if (!parsed.stream) return json(response, 200, bodyFor(parsed.model));
  await stream(response, framesFor(parsed.model, settings.streamChunks), settings.chunkIntervalMs);
}

function parseChat(body: string): { model: string; stream: boolean } | undefined {
  try {
    const value = JSON.parse(body) as { model?: unknown; stream?: unknown };
    return {
      model: typeof value.model === "string" ? value.model : "unknown",
      stream: value.stream === true,
    };
  } catch {
    return undefined;
  }
}

const bodies = new Map<string, Buffer>();
function bodyFor(model: string): Buffer {
  let body = bodies.get(model);
  if (!body) {
    body = completionBody(model);
    bodies.set(model, body);
  }
  return body;
}

const frameSets = new Map<string, Buffer[]>();
function framesFor(model: string, count: number): Buffer[] {
  const key = `${model}\u0000${count}`;
  let frames = frameSets.get(key);
  if (!frames) {
    frames = streamFrames(model, count);
    frameSets.set(key, frames);
  }
  return frames;
}

function json(response: ServerResponse, status: number, body: Buffer): void {
  response.writeHead(status, { "content-type": "application/json", "content-length": body.length });
  response.end(body);
}

async function stream(response: ServerResponse, frames: Buffer[], intervalMs: number): Promise<void> {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  let closed = false;
  response.once("close", () => {
    closed = true;
  });
  if (intervalMs === 0) {
    for (const frame of frames) response.write(frame);
    response.end();
    return;
  }
  for (const frame of frames) {
    if (closed) return;
    response.write(frame);
    await sleep(intervalMs);
  }
  response.end();
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
