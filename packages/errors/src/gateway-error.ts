import { ERROR_KINDS, type ErrorKind } from "./catalogue.js";
import type { CodeFor } from "./codes.js";

export type ErrorMetadata = Record<string, unknown>;

export interface GatewayErrorOptions<K extends ErrorKind = ErrorKind> {
  /** One of the gateway's codes (ERROR_CODES) whose kind is K: a new code starts as a catalogue line. */
  code?: CodeFor<K>;
  /**
   * A code an upstream provider sent, passed through as data (it is not one of ours, so not in the
   * catalogue). Sent as the error's code when `code` is not given.
   */
  upstreamCode?: string;
  metadata?: ErrorMetadata;
  headers?: Record<string, string>;
  cause?: unknown;
}

/** An error with a known place in the catalogue; anything else that escapes is rendered as a 500. */
export class GatewayError<K extends ErrorKind = ErrorKind> extends Error {
  readonly kind: K;
  /** The code on the wire: a catalogued code, or else a provider's own code passed through. */
  readonly code: string | undefined;
  readonly metadata: ErrorMetadata | undefined;
  readonly headers: Record<string, string>;

  constructor(kind: K, message: string, options: GatewayErrorOptions<NoInfer<K>> = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "GatewayError";
    this.kind = kind;
    this.code = options.code ?? options.upstreamCode;
    this.metadata = options.metadata;
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return ERROR_KINDS[this.kind].status;
  }

  get type(): string {
    return ERROR_KINDS[this.kind].type;
  }
}

export function isGatewayError(value: unknown): value is GatewayError {
  return value instanceof GatewayError;
}

/** Wraps anything thrown into a GatewayError without leaking internals to the client. */
export function toGatewayError(value: unknown): GatewayError {
  if (isGatewayError(value)) return value;
  return new GatewayError("internal", "internal error", { cause: value });
}
