/** Deeper than any request the gateway serves: 64, the issue's bound (providers' own limits are higher). */
export const DEFAULT_MAX_JSON_DEPTH = 64;

/**
 * Whether JSON text nests arrays/objects deeper than `max`, read before JSON.parse so a body of
 * 10,000 open brackets costs one linear scan and never reaches the parser or the routes' recursive
 * code. Brackets inside strings do not count. A malformed text is left to JSON.parse to refuse.
 */
export function exceedsDepth(text: string, max: number): boolean {
  // Nesting deeper than `max` needs more than `max` opening brackets.
  if (text.length <= max) return false;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index++; // a backslash escapes the next character, a quote included
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b || code === 0x5b) {
      depth++;
      if (depth > max) return true;
    } else if (code === 0x7d || code === 0x5d) {
      depth--;
    }
  }
  return false;
}

/** A surrogate half without its partner (matched on UTF-16 code units: no `u` flag on purpose). */
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Text PostgreSQL cannot store: a NUL anywhere, or (in jsonb) an unpaired surrogate's `\uD800` escape. */
export function isUnstorableText(text: string): boolean {
  return text.includes("\u0000") || UNPAIRED_SURROGATE.test(text);
}

/**
 * The path of the first string (value or key) PostgreSQL cannot store (see isUnstorableText), e.g.
 * `messages[0].name`; the control plane stores text there, so it is a 400 naming the field, not a 500.
 */
export function unstorableTextPath(value: unknown, path = ""): string | undefined {
  if (typeof value === "string") return isUnstorableText(value) ? path || "body" : undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = unstorableTextPath(value[index], `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const field = path ? `${path}.${key}` : key;
      if (isUnstorableText(key)) return field;
      const found = unstorableTextPath(item, field);
      if (found) return found;
    }
  }
  return undefined;
}
