import type { Response } from "express";

/** Aborts when the client disconnects before the response has been fully written. */
export function clientAbortSignal(response: Response): AbortSignal {
  const controller = new AbortController();
  response.once("close", () => {
    if (!response.writableFinished) controller.abort();
  });
  return controller.signal;
}
