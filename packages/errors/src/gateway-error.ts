import { ERROR_KINDS, type ErrorKind } from "./catalogue.js";

export type ErrorMetadata = Record<string, unknown>;

export interface GatewayErrorOptions {
  code?: string;
  metadata?: ErrorMetadata;
  headers?: Record<string, string>;
  cause?: unknown;
}

/** An error with a known place in the catalogue; anything else that escapes is rendered as a 500. */
export class GatewayError extends Error {
  readonly kind: ErrorKind;
  readonly code: string | undefined;
  readonly metadata: ErrorMetadata | undefined;
  readonly headers: Record<string, string>;

  constructor(kind: ErrorKind, message: string, options: GatewayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "GatewayError";
    this.kind = kind;
    this.code = options.code;
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
