import { performance } from "node:perf_hooks";
import { Pool } from "undici";
import { chatBody, type Target } from "../targets/target.js";
import { failureReason } from "./failure.js";
import { type LoadResult, Samples, summarise } from "./stats.js";

export type LoadShape =
  /** Open loop: request i is due at start + i / rps whatever the answers do; latency counts from then. */
  | { kind: "rate"; rps: number; seconds: number }
  /** Closed loop: `connections` callers, each sending its next request when the last one finished. */
  | { kind: "closed"; connections: number; seconds?: number; requests?: number };

interface Recorder {
  latency: Samples;
  ttfb: Samples | undefined;
  errors: number;
  failures: Record<string, number>;
}

export interface LoadOptions {
  /** The request body's size in bytes (the prompt padded); the tiny prompt by default. */
  bodyBytes?: number;
  /** Each answer's generation id (`x-generation-id`) and when its body ended: the freshness probe. */
  onAnswer?: (generationId: string, answeredAt: number) => void;
}

/** Drives one target with chat completions (plain or streamed) and measures each answer in full. */
export async function runLoad(
  target: Target,
  shape: LoadShape,
  stream: boolean,
  options: LoadOptions = {},
): Promise<LoadResult> {
  const origin = new URL(target.url);
  const connections = shape.kind === "rate" ? Math.max(64, Math.ceil(shape.rps / 10)) : shape.connections;
  const pool = new Pool(origin.origin, { connections, keepAliveTimeout: 60_000, pipelining: 1 });
  const recorder: Recorder = {
    latency: new Samples(),
    ttfb: stream ? new Samples() : undefined,
    errors: 0,
    failures: {},
  };
  const body = chatBody(target.model, stream, options.bodyBytes);
  const send = sender(pool, target, origin.pathname, body, recorder, options.onAnswer);
  const started = performance.now();
  try {
    if (shape.kind === "rate") await openLoop(send, shape.rps, shape.seconds);
    else await closedLoop(send, shape.connections, shape.seconds, shape.requests);
  } finally {
    await pool.destroy();
  }
  const seconds = (performance.now() - started) / 1000;
  return summarise(recorder.latency, recorder.errors, recorder.failures, seconds, recorder.ttfb);
}

type Send = (due: number) => Promise<void>;

function sender(
  pool: Pool,
  target: Target,
  path: string,
  body: string,
  recorder: Recorder,
  onAnswer: LoadOptions["onAnswer"],
): Send {
  const fail = (reason: string): void => {
    recorder.errors++;
    if (Object.keys(recorder.failures).length < 5 || reason in recorder.failures) {
      recorder.failures[reason] = (recorder.failures[reason] ?? 0) + 1;
    }
  };
  return async (due) => {
    try {
      const response = await pool.request({ method: "POST", path, headers: target.headers, body });
      // Time to first byte of a stream, not of an error: a 500 body arrives fast and means nothing.
      if (response.statusCode !== 200) {
        return fail(failureReason(response.statusCode, await response.body.text()));
      }
      let first = true;
      for await (const _chunk of response.body) {
        if (first && recorder.ttfb) recorder.ttfb.add(performance.now() - due);
        first = false;
      }
      const answeredAt = performance.now();
      recorder.latency.add(answeredAt - due);
      const generationId = response.headers["x-generation-id"];
      if (onAnswer && typeof generationId === "string") onAnswer(generationId, answeredAt);
    } catch (error) {
      fail((error as Error).message.slice(0, 80));
    }
  };
}

async function openLoop(send: Send, rps: number, seconds: number): Promise<void> {
  const total = Math.round(rps * seconds);
  const start = performance.now();
  const inFlight = new Set<Promise<void>>();
  let issued = 0;
  while (issued < total) {
    const now = performance.now();
    // Everything due by now goes out, so a slow tick never lowers the offered rate.
    while (issued < total && start + (issued * 1000) / rps <= now) {
      const request = send(start + (issued * 1000) / rps);
      inFlight.add(request);
      request.finally(() => inFlight.delete(request));
      issued++;
    }
    // A 1 ms timer, not a spin: the generator shares the cores with the targets.
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(inFlight);
}

async function closedLoop(
  send: Send,
  connections: number,
  seconds?: number,
  requests?: number,
): Promise<void> {
  const deadline = performance.now() + (seconds ?? Number.POSITIVE_INFINITY) * 1000;
  let remaining = requests ?? Number.POSITIVE_INFINITY;
  const caller = async (): Promise<void> => {
    while (remaining > 0 && performance.now() < deadline) {
      remaining--;
      await send(performance.now());
    }
  };
  await Promise.all(Array.from({ length: connections }, caller));
}
