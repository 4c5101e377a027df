import type { Response } from "express";
import { timesOf, writeServerTiming } from "./server-timing.js";

/**
 * A 200 JSON answer written directly, with the headers express's `res.json()` sends
 * (`Content-Type: application/json; charset=utf-8` and `Content-Length`). Express's send path looks up
 * the charset through mime-types, re-sets headers and copies every body of 1,000 characters or more
 * into a Buffer before writing it; on the hot path that is about 1% of the edge's CPU per request.
 */
export function sendJson(response: Response, body: unknown): void {
  const text = JSON.stringify(body);
  timesOf(response)?.end("write");
  writeServerTiming(response);
  response.statusCode = 200;
  response.setHeader("Content-Type", "application/json; charset=utf-8");
  response.setHeader("Content-Length", Buffer.byteLength(text));
  response.end(text);
}
