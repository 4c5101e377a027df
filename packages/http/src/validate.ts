import { GatewayError } from "@gw/errors";
import type { z } from "zod";

/**
 * Parses untrusted input with a zod schema; failures become a 400 whose message names the field,
 * e.g. `messages[0].content: expected string`.
 */
export function parseOrThrow<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  where = "body",
): z.infer<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue ? formatPath(issue.path) : "";
  const field = path || where;
  throw new GatewayError("invalid_request", `${field}: ${issue?.message ?? "invalid value"}`, {
    code: "invalid_request",
    metadata: { field },
  });
}

function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path
    .map((segment, index) =>
      typeof segment === "number" ? `[${segment}]` : `${index === 0 ? "" : "."}${String(segment)}`,
    )
    .join("");
}
