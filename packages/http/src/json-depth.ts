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

/**
 * The path of the first string (value or key) holding a NUL character, e.g. `messages[0].name`; the
 * control plane's PostgreSQL cannot store one, so it is a 400 naming the field, not a 500.
 */
export function nulPath(value: unknown, path = ""): string | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? path || "body" : undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = nulPath(value[index], `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const field = path ? `${path}.${key}` : key;
      if (key.includes("\u0000")) return field;
      const found = nulPath(item, field);
      if (found) return found;
    }
  }
  return undefined;
}
