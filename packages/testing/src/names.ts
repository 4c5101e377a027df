import { randomBytes } from "node:crypto";

/**
 * A name no other test, worker or concurrent run uses: for Kafka topics and groups, Redis key
 * prefixes and database names. Lower-case letters, digits, "-" and "_" only, so it is valid in all
 * of them; pass `separator: "_"` where "-" is not allowed (SQL identifiers).
 */
export function uniqueName(prefix: string, separator: "-" | "_" = "-"): string {
  const clean = prefix
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, separator)
    .replace(/^[-_]+|[-_]+$/g, "");
  const stamp = Date.now().toString(36);
  const random = randomBytes(4).toString("hex");
  return [clean || "test", stamp, random].join(separator);
}
