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
 * Iterative, with an explicit stack, in document order: it runs on caller data before any schema, so
 * its cost is the value's size, never its depth (a recursive walk of a 20,000-level value overflowed the
 * stack outside any handler and stopped the process, issue 33). Paths are built only for the answer.
 */
export function unstorableTextPath(value: unknown, path = ""): string | undefined {
  const stack: Array<{ value: unknown; path: string }> = [{ value, path }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const current = next.value;
    if (typeof current === "string") {
      if (isUnstorableText(current)) return next.path || "body";
      continue;
    }
    if (typeof current !== "object" || current === null) continue;
    // Pushed in reverse so the first member is visited first, as the recursive walk did.
    const children: Array<{ value: unknown; path: string }> = [];
    if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index++)
        children.push({ value: current[index], path: `${next.path}[${index}]` });
    } else {
      for (const [key, item] of Object.entries(current)) {
        const field = next.path ? `${next.path}.${key}` : key;
        if (isUnstorableText(key)) {
          // A key is checked before its value and before later members: a marker visited in order.
          children.push({ value: UNSTORABLE_KEY, path: field });
          break;
        }
        children.push({ value: item, path: field });
      }
    }
    for (let index = children.length - 1; index >= 0; index--) {
      const child = children[index];
      if (child) stack.push(child);
    }
  }
  return undefined;
}

/** Stands for an unstorable key in unstorableTextPath's stack (a string that is itself unstorable). */
const UNSTORABLE_KEY = "\u0000";
