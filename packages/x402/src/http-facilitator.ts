import { FacilitatorError, type FacilitatorOperation } from "./errors.js";
import { parseSettleResponse, parseSupportedResponse, parseVerifyResponse } from "./response-shapes.js";
import type {
  Facilitator,
  PaymentPayload,
  PaymentRequirements,
  SettleResponse,
  SupportedResponse,
  VerifyResponse,
} from "./types.js";

/** The public x402 testnet facilitator, x402's own default. */
export const DEFAULT_FACILITATOR_URL = "https://x402.org/facilitator";

export interface HttpFacilitatorOptions {
  /** Base URL; `/verify`, `/settle` and `/supported` are appended (trailing slashes are dropped). */
  url: string;
  /** Per-call deadline covering the whole exchange, body included. Default 10 s. */
  timeoutMs?: number;
  /**
   * Extra headers per operation (e.g. a hosted facilitator's API credentials), computed per call so
   * short-lived tokens can be minted. Never logged.
   */
  authHeaders?: (operation: FacilitatorOperation) => Promise<Record<string, string>> | Record<string, string>;
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** Facilitator answers are a few hundred bytes; a larger one is not read into memory. */
const MAX_ANSWER_BYTES = 256 * 1024;

/**
 * A client of a facilitator's HTTP API (x402 "Facilitator API": POST /verify, POST /settle with
 * `{x402Version, paymentPayload, paymentRequirements}`, GET /supported).
 *
 * A verdict (`isValid`/`success` in a 2xx or 4xx answer) is returned as a value, whatever it says. Anything
 * else — timeout, connection failure, a 5xx, a body that is not the documented shape — throws a
 * FacilitatorError, so the caller can never mistake "no answer" for "not paid" or "paid".
 */
export class HttpFacilitator implements Facilitator {
  readonly url: string;
  readonly timeoutMs: number;
  readonly #authHeaders: HttpFacilitatorOptions["authHeaders"];

  constructor(options: HttpFacilitatorOptions) {
    this.url = options.url.replace(/\/+$/, "");
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#authHeaders = options.authHeaders;
  }

  async verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse> {
    const answer = await this.#call("verify", "POST", requestBody(payload, requirements));
    return parseVerdict("verify", answer, parseVerifyResponse);
  }

  async settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse> {
    const answer = await this.#call("settle", "POST", requestBody(payload, requirements));
    return parseVerdict("settle", answer, parseSettleResponse);
  }

  async getSupported(): Promise<SupportedResponse> {
    const answer = await this.#call("supported", "GET");
    if (answer.status < 200 || answer.status > 299) {
      throw badStatus("supported", answer);
    }
    const supported = parseSupportedResponse(answer.json);
    if (!supported) throw malformed("supported", answer.status);
    return supported;
  }

  async #call(operation: FacilitatorOperation, method: "GET" | "POST", body?: string): Promise<RawAnswer> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    const headers: Record<string, string> = { accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    Object.assign(headers, await this.#authHeaders?.(operation));
    try {
      // The signal stays attached while the body is read, so a facilitator that sends headers and then
      // stalls is cut off by the same deadline.
      // Redirects are not followed: a settle must reach the facilitator configured, not one it names.
      const response = await fetch(`${this.url}/${operation}`, {
        method,
        headers,
        body,
        signal,
        redirect: "manual",
      });
      const text = await readCapped(response, MAX_ANSWER_BYTES);
      return { status: response.status, json: text === undefined ? undefined : parseJson(text) };
    } catch (error) {
      throw transportError(operation, error, signal.aborted, this.timeoutMs);
    }
  }
}

interface RawAnswer {
  status: number;
  /** The parsed body, or undefined when it was not JSON. */
  json: unknown;
}

function requestBody(payload: PaymentPayload, requirements: PaymentRequirements): string {
  return JSON.stringify({
    x402Version: payload.x402Version,
    paymentPayload: payload,
    paymentRequirements: requirements,
  });
}

/** The body as text, or undefined (read no further) once it exceeds `max` bytes. */
async function readCapped(response: Response, max: number): Promise<string | undefined> {
  if (!response.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > max) {
      await response.body.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** 2xx and 4xx answers may carry a verdict (x402's reference facilitator answers refusals with 400). */
function parseVerdict<T>(
  operation: FacilitatorOperation,
  answer: RawAnswer,
  parse: (json: unknown) => T | undefined,
): T {
  if (answer.status < 200 || answer.status > 499 || (answer.status > 299 && answer.status < 400)) {
    throw badStatus(operation, answer);
  }
  const verdict = parse(answer.json);
  if (verdict !== undefined) return verdict;
  if (answer.status >= 400) throw badStatus(operation, answer);
  throw malformed(operation, answer.status);
}

function badStatus(operation: FacilitatorOperation, answer: RawAnswer): FacilitatorError {
  return new FacilitatorError(
    "bad_status",
    operation,
    `facilitator ${operation} answered HTTP ${answer.status} without a verdict`,
    answer.status,
  );
}

function malformed(operation: FacilitatorOperation, status: number): FacilitatorError {
  return new FacilitatorError(
    "malformed_response",
    operation,
    `facilitator ${operation} answered HTTP ${status} with a body that is not a ${operation} response`,
    status,
  );
}

function transportError(
  operation: FacilitatorOperation,
  error: unknown,
  timedOut: boolean,
  timeoutMs: number,
): FacilitatorError {
  if (timedOut) {
    return new FacilitatorError(
      "timeout",
      operation,
      `facilitator ${operation} gave no answer within ${timeoutMs} ms`,
      undefined,
      {
        cause: error,
      },
    );
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new FacilitatorError(
    "unreachable",
    operation,
    `facilitator ${operation} could not be reached: ${reason}`,
    undefined,
    {
      cause: error,
    },
  );
}
