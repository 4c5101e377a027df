import type { Response } from "express";
import type { TokenUsage } from "../canonical/tokens.js";
import type { UpstreamResponse } from "../providers/http.js";
import type { ApiFormat } from "../providers/types.js";
import { returnedResponseHeaders } from "./proxy-headers.js";
import { NativeUsageScanner } from "./proxy-usage.js";

/** What the provider answered, as far as metering needs it. */
export interface Served {
  status: number;
  usage: TokenUsage | undefined;
  streamed: boolean;
  cancelled: boolean;
  generationStartedAt: number;
}

/**
 * Status, headers and body exactly as the provider sent them, written as they arrive (no buffering).
 * The response is left open: the caller meters first and then ends it, so a bus that persists
 * in-process (the embedded default's outbox) has the usage before the client sees the end.
 */
export async function relay(
  upstream: UpstreamResponse,
  response: Response,
  format: ApiFormat,
  signal: AbortSignal,
  sentAt: number,
): Promise<Served> {
  const streamed = String(upstream.headers["content-type"] ?? "").includes("text/event-stream");
  const scanner = new NativeUsageScanner(format, streamed);
  response.status(upstream.status);
  // setHeader, not express's set(): that would add a charset to the provider's content-type.
  for (const [name, value] of Object.entries(returnedResponseHeaders(upstream.headers)))
    response.setHeader(name, value);
  response.flushHeaders();
  let cancelled = false;
  try {
    for await (const chunk of upstream.body) {
      const bytes = chunk as Buffer;
      scanner.push(bytes);
      if (!response.write(bytes)) await drained(response, signal);
    }
  } catch {
    // The client left (metered on what it got) or the provider broke off mid-body (the status is sent).
    cancelled = signal.aborted;
  }
  return {
    status: upstream.status,
    usage: scanner.finish(),
    streamed,
    cancelled,
    generationStartedAt: sentAt,
  };
}

function drained(response: Response, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off("drain", done);
      signal.removeEventListener("abort", done);
      resolve();
    };
    response.once("drain", done);
    signal.addEventListener("abort", done, { once: true });
  });
}
