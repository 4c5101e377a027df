/**
 * Whether a handler's failure says a service it depends on is unreachable or restarting (PostgreSQL,
 * Redis, a peer over gRPC), rather than that this message cannot be applied. The consumers' retry loops
 * never dead-letter a message for such a failure: they wait for the service with a capped backoff.
 * Dead-lettering it instead (after five attempts, a few seconds) turned a 10-second PostgreSQL restart
 * into answered requests with no ledger entry and no generation record (issue 33's infrastructure-fault
 * suite). A message that fails for any other reason is still dead-lettered after its attempts, so a
 * poison message cannot stop its partition.
 */
export function isTransientFailure(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current !== null && typeof current === "object" && !seen.has(current)) {
    seen.add(current);
    if (transientByItself(current)) return true;
    // An AggregateError (one connect per address) is transient when any of its causes is.
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some((inner) => isTransientFailure(inner))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Node's socket errors: the service is down, restarting or unreachable. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ECONNABORTED",
]);

/**
 * PostgreSQL's SQLSTATEs that say "try again" (https://www.postgresql.org/docs/current/errcodes-appendix.html):
 * class 08 (connection exception), 57P01–57P03 (admin shutdown, crash shutdown, cannot connect now), 53300
 * (too many connections), 40001 (serialization failure), 40P01 (deadlock detected).
 */
const POSTGRES_RETRY = /^(08...|57P0[123]|53300|40001|40P01)$/;

/** Messages of drivers that carry no code: pg's lost connection and pool timeout, ioredis' closed connection. */
const DRIVER_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Client has encountered a connection error/,
  /^Connection is closed\.?$/,
  /^Reached the max retries per request limit/,
  /^Stream isn't writeable/,
];

/** gRPC status codes UNAVAILABLE (14) and DEADLINE_EXCEEDED (4): the peer is down or did not answer in time. */
const GRPC_RETRY = new Set([4, 14]);

function transientByItself(error: object): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (SOCKET_CODES.has(code) || POSTGRES_RETRY.test(code))) return true;
  if (typeof code === "number" && GRPC_RETRY.has(code) && "metadata" in error) return true;
  const message = (error as { message?: unknown }).message;
  return typeof message === "string" && DRIVER_MESSAGES.some((pattern) => pattern.test(message));
}
