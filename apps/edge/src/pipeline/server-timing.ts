import type { RequestHandler, Response } from "express";
import { clockSignal, StageTimes, subscribeToUndici } from "../providers/stage-clock.js";

export { endStage, type Stage, StageTimes } from "../providers/stage-clock.js";

const byResponse = new WeakMap<Response, StageTimes>();

/**
 * First middleware when SERVER_TIMING=true: every request gets its stage clock. Off (the default),
 * nothing is installed and every `endStage` is one WeakMap miss.
 */
export function serverTiming(): RequestHandler {
  subscribeToUndici();
  return (_request, response, next) => {
    byResponse.set(response, new StageTimes());
    next();
  };
}

export function timesOf(response: Response): StageTimes | undefined {
  return byResponse.get(response);
}

/** The upstream call knows its request only by the client's abort signal: link the two. */
export function linkSignal(response: Response, signal: AbortSignal): void {
  const times = byResponse.get(response);
  if (times) clockSignal(signal, times);
}

/** Sets the header just before the answer's headers go out (only when SERVER_TIMING=true). */
export function writeServerTiming(response: Response): void {
  const times = byResponse.get(response);
  if (times && !response.headersSent) response.setHeader("Server-Timing", times.header());
}
