/**
 * The Kafka protocol error type (e.g. "MESSAGE_TOO_LARGE") behind an error from kafkajs, which wraps
 * the protocol error (as `cause`) when its own retries give up.
 */
export function kafkaErrorType(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === "object" && depth < 5; depth++) {
    const { type, cause } = current as { type?: unknown; cause?: unknown };
    if (typeof type === "string") return type;
    current = cause;
  }
  return undefined;
}
