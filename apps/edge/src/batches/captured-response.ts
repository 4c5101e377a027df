import { EventEmitter } from "node:events";
import type { Response } from "express";

/**
 * Stands in for the HTTP response when the gateway serves a batch request itself: the same handler
 * code runs (plan, admit, failover, meter), and the answer is recorded instead of sent.
 */
export class CapturedResponse extends EventEmitter {
  statusCode = 200;
  body: unknown;
  writableFinished = false;
  headersSent = false;
  private readonly headers = new Map<string, unknown>();

  setHeader(name: string, value: unknown): this {
    this.headers.set(name.toLowerCase(), value);
    return this;
  }

  getHeader(name: string): unknown {
    return this.headers.get(name.toLowerCase());
  }

  status(code: number): this {
    this.statusCode = code;
    return this;
  }

  json(body: unknown): this {
    this.body = body;
    return this.end();
  }

  /** A body written directly (`pipeline/json-response.ts` ends with the serialised JSON) is kept parsed. */
  end(chunk?: string | Uint8Array): this {
    if (chunk !== undefined) {
      const text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
      const type = String(this.getHeader("content-type") ?? "");
      this.body = type.includes("json") ? JSON.parse(text) : text;
    }
    this.writableFinished = true;
    this.headersSent = true;
    return this;
  }

  /** Typed as express's Response for the handlers; only the members above are ever used. */
  asResponse(): Response {
    return this as unknown as Response;
  }
}
