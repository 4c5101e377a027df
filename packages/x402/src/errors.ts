/** Why a facilitator call produced no verdict. */
export type FacilitatorFailureKind =
  /** No answer within the configured timeout (for settle the outcome is unknown: it may have settled). */
  | "timeout"
  /** The connection could not be made or broke (refused, reset, DNS). */
  | "unreachable"
  /** The facilitator answered with a status that carries no verdict (5xx, 401, 404, ...). */
  | "bad_status"
  /** The answer was not JSON or not the documented shape. */
  | "malformed_response";

export type FacilitatorOperation = "verify" | "settle" | "supported";

/**
 * A facilitator call that produced no verdict. The gateway maps `httpStatus` onto its answer: 503 when
 * the facilitator could not be reached in time (try again later), 502 when it answered nonsense.
 * Nothing may be credited on this error.
 */
export class FacilitatorError extends Error {
  override readonly name = "FacilitatorError";

  constructor(
    readonly kind: FacilitatorFailureKind,
    readonly operation: FacilitatorOperation,
    message: string,
    /** The facilitator's HTTP status, when it answered one. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The status the gateway should answer with. */
  get httpStatus(): 502 | 503 {
    return this.kind === "timeout" || this.kind === "unreachable" ? 503 : 502;
  }
}
