import type { IncomingHttpHeaders } from "node:http";

export interface LoggedRequest {
  readonly seq: number;
  readonly time: string;
  readonly method: string;
  /** Path with query string, as received. */
  readonly path: string;
  /** Lower-case header names; repeated headers joined with ", ". */
  readonly headers: Record<string, string>;
  /** The parsed JSON body, the raw text when it is not JSON, or null when empty. */
  readonly body: unknown;
}

/** The last N requests a fake received, so tests can assert what the gateway sent upstream. */
export class RequestLog {
  readonly #limit: number;
  #entries: LoggedRequest[] = [];
  #seq = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  add(method: string, path: string, headers: IncomingHttpHeaders, body: unknown): void {
    this.#seq += 1;
    const flat: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
    }
    this.#entries.push({ seq: this.#seq, time: new Date().toISOString(), method, path, headers: flat, body });
    if (this.#entries.length > this.#limit) this.#entries.splice(0, this.#entries.length - this.#limit);
  }

  /** Oldest first; `limit` keeps only the most recent ones. */
  list(limit?: number): LoggedRequest[] {
    return limit === undefined ? [...this.#entries] : this.#entries.slice(-limit);
  }

  clear(): void {
    this.#entries = [];
  }
}
