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
  /**
   * The status the fake answered with, once its answer's head was written: what the fake itself did
   * with the request, so a test can tell a provider's own refusal (relayed by a gateway) from a
   * refusal the gateway made after forwarding.
   */
  readonly status?: number;
  /** The body of a refusal (status >= 400) the fake answered in one piece, as sent. */
  readonly refusal?: string;
}

/** The last N requests a fake received, so tests can assert what the gateway sent upstream. */
export class RequestLog {
  readonly #limit: number;
  #entries: LoggedRequest[] = [];
  #seq = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Logs a request and returns its sequence number (for `answered`). */
  add(method: string, path: string, headers: IncomingHttpHeaders, body: unknown): number {
    this.#seq += 1;
    const flat: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
    }
    this.#entries.push({ seq: this.#seq, time: new Date().toISOString(), method, path, headers: flat, body });
    if (this.#entries.length > this.#limit) this.#entries.splice(0, this.#entries.length - this.#limit);
    return this.#seq;
  }

  /** Records how the fake answered request `seq` (a no-op once it left the log). */
  answered(seq: number, status: number, refusal?: string): void {
    const index = this.#entries.findIndex((entry) => entry.seq === seq);
    const entry = this.#entries[index];
    if (entry) this.#entries[index] = { ...entry, status, ...(refusal === undefined ? {} : { refusal }) };
  }

  /** Oldest first; `limit` keeps only the most recent ones. */
  list(limit?: number): LoggedRequest[] {
    return limit === undefined ? [...this.#entries] : this.#entries.slice(-limit);
  }

  clear(): void {
    this.#entries = [];
  }
}
