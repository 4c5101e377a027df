/**
 * What a non-200 answer says about itself, for the failure counts: the status plus the gateway's reason
 * (`error.metadata.reason`, e.g. `dependency_unavailable`) and message, or else the first words of the
 * body. A count of "HTTP 503" alone does not say which component refused (admission, flood guard,
 * upstream pool, spool…).
 */
export function failureReason(status: number, body: string): string {
  const detail = errorDetail(body);
  return detail ? `HTTP ${status} ${detail}` : `HTTP ${status}`;
}

function errorDetail(body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body.trim().replace(/\s+/g, " ").slice(0, 60);
  }
  const error = field(parsed, "error");
  const message = field(error, "message") ?? field(parsed, "message");
  const reason = field(field(error, "metadata"), "reason");
  return [reason, message]
    .filter((part): part is string => typeof part === "string")
    .join(": ")
    .slice(0, 100);
}

function field(value: unknown, name: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}
