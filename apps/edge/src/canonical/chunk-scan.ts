import { type ChunkWire, chunkWireSchema } from "./wire.js";

/**
 * A single structural pass over one OpenAI-format stream chunk (`{"id":…,"choices":[…],…}`), so the
 * chat surface can relay the provider's bytes instead of parsing and re-serialising every chunk. It
 * allocates no values: it records where the envelope members, `choices`, `usage` and `error` sit, the
 * other top-level members as ranges, whether a choice finished (and where its reason is), and checks
 * that the text is well nested (strings closed, brackets matched). Values are parsed only on demand,
 * and only the small ones metering needs (the usage object, the id once per stream).
 */

/** Offsets of one value in the chunk's text: `[start, end)`; absent = -1. */
export interface Span {
  start: number;
  end: number;
}

export interface ChunkScan {
  id: Span | undefined;
  created: Span | undefined;
  provider: Span | undefined;
  fingerprint: Span | undefined;
  choices: Span | undefined;
  /** `choices` holds at least one element. */
  hasChoices: boolean;
  usage: Span | undefined;
  error: Span | undefined;
  /** The last non-null `finish_reason` value among the choices. */
  finishReason: Span | undefined;
  /** Members the envelope does not replace (`choices` and anything unknown), as `[start, end)` pairs. */
  rest: number[];
}

const QUOTE = 34;
const BACKSLASH = 92;
const COLON = 58;
const COMMA = 44;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;

/** Scans one chunk's JSON text; undefined when it is not a well-nested JSON object. */
export function scanChunk(text: string): ChunkScan | undefined {
  const scan: ChunkScan = {
    id: undefined,
    created: undefined,
    provider: undefined,
    fingerprint: undefined,
    choices: undefined,
    hasChoices: false,
    usage: undefined,
    error: undefined,
    finishReason: undefined,
    rest: [],
  };
  let index = skipSpace(text, 0);
  if (text.charCodeAt(index) !== OPEN_OBJECT) return undefined;
  index = skipSpace(text, index + 1);
  if (text.charCodeAt(index) === CLOSE_OBJECT)
    return skipSpace(text, index + 1) === text.length ? scan : undefined;
  for (;;) {
    const keyStart = index;
    const keyEnd = skipString(text, keyStart);
    if (keyEnd < 0) return undefined;
    index = skipSpace(text, keyEnd);
    if (text.charCodeAt(index) !== COLON) return undefined;
    const valueStart = skipSpace(text, index + 1);
    const isChoices = keyIs(text, keyStart, keyEnd, "choices");
    const valueEnd = isChoices ? scanChoices(text, valueStart, scan) : skipValue(text, valueStart);
    if (valueEnd < 0) return undefined;
    noteMember(text, scan, keyStart, keyEnd, { start: valueStart, end: valueEnd });
    index = skipSpace(text, valueEnd);
    const next = text.charCodeAt(index);
    if (next === CLOSE_OBJECT) return skipSpace(text, index + 1) === text.length ? scan : undefined;
    if (next !== COMMA) return undefined;
    index = skipSpace(text, index + 1);
  }
}

function noteMember(text: string, scan: ChunkScan, keyStart: number, keyEnd: number, value: Span): void {
  if (keyIs(text, keyStart, keyEnd, "choices")) {
    scan.choices = value;
    scan.rest.push(keyStart, value.end);
  } else if (keyIs(text, keyStart, keyEnd, "id")) scan.id = value;
  else if (keyIs(text, keyStart, keyEnd, "created")) scan.created = value;
  else if (keyIs(text, keyStart, keyEnd, "usage")) scan.usage = value;
  else if (keyIs(text, keyStart, keyEnd, "system_fingerprint")) scan.fingerprint = value;
  else if (keyIs(text, keyStart, keyEnd, "provider")) scan.provider = value;
  else if (keyIs(text, keyStart, keyEnd, "error")) {
    scan.error = value;
    scan.rest.push(keyStart, value.end);
  } else if (!keyIs(text, keyStart, keyEnd, "object") && !keyIs(text, keyStart, keyEnd, "model"))
    scan.rest.push(keyStart, value.end);
}

/** The `choices` array: each element's members are walked for a non-null `finish_reason`. */
function scanChoices(text: string, start: number, scan: ChunkScan): number {
  if (text.charCodeAt(start) !== OPEN_ARRAY) return skipValue(text, start);
  let index = skipSpace(text, start + 1);
  if (text.charCodeAt(index) === CLOSE_ARRAY) return index + 1;
  scan.hasChoices = true;
  for (;;) {
    const end =
      text.charCodeAt(index) === OPEN_OBJECT ? scanChoice(text, index, scan) : skipValue(text, index);
    if (end < 0) return -1;
    index = skipSpace(text, end);
    const next = text.charCodeAt(index);
    if (next === CLOSE_ARRAY) return index + 1;
    if (next !== COMMA) return -1;
    index = skipSpace(text, index + 1);
  }
}

function scanChoice(text: string, start: number, scan: ChunkScan): number {
  let index = skipSpace(text, start + 1);
  if (text.charCodeAt(index) === CLOSE_OBJECT) return index + 1;
  for (;;) {
    const keyEnd = skipString(text, index);
    if (keyEnd < 0) return -1;
    const isFinish = keyIs(text, index, keyEnd, "finish_reason");
    index = skipSpace(text, keyEnd);
    if (text.charCodeAt(index) !== COLON) return -1;
    const valueStart = skipSpace(text, index + 1);
    const valueEnd = skipValue(text, valueStart);
    if (valueEnd < 0) return -1;
    // Only a non-empty string finishes a choice (null, and "" some hosts send, do not).
    if (isFinish && text.charCodeAt(valueStart) === QUOTE && valueEnd - valueStart > 2)
      scan.finishReason = { start: valueStart, end: valueEnd };
    index = skipSpace(text, valueEnd);
    const next = text.charCodeAt(index);
    if (next === CLOSE_OBJECT) return index + 1;
    if (next !== COMMA) return -1;
    index = skipSpace(text, index + 1);
  }
}

/** Whether the string token at `[start, end)` (quotes included) is exactly `name`, with no escapes. */
function keyIs(text: string, start: number, end: number, name: string): boolean {
  return end - start === name.length + 2 && text.startsWith(name, start + 1);
}

function skipSpace(text: string, start: number): number {
  let index = start;
  for (;;) {
    const code = text.charCodeAt(index);
    if (code !== 32 && code !== 10 && code !== 13 && code !== 9) return index;
    index++;
  }
}

/** The end (after the closing quote) of the string starting at `start`, or -1. */
function skipString(text: string, start: number): number {
  if (text.charCodeAt(start) !== QUOTE) return -1;
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** The end of the value starting at `start`, or -1 when it is cut or badly nested. */
function skipValue(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first === QUOTE) return skipString(text, start);
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) return skipLiteral(text, start);
  // Open brackets as a stack of bits (1 = object); deeper values keep the overflow in an array.
  let stack = 0;
  let depth = 0;
  let overflow: number[] | undefined;
  let index = start;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      index = skipString(text, index);
      if (index < 0) return -1;
      continue;
    }
    if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      if (depth >= 30) {
        overflow ??= [];
        overflow.push(stack);
        stack = 0;
      }
      stack = stack * 2 + (code === OPEN_OBJECT ? 1 : 0);
      depth++;
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      if ((stack & 1) !== (code === CLOSE_OBJECT ? 1 : 0)) return -1;
      stack = Math.floor(stack / 2);
      depth--;
      if (depth >= 30) stack = overflow?.pop() ?? 0;
      if (depth === 0) return index + 1;
    }
    index++;
  }
  return -1;
}

/** A number, `true`, `false` or `null`: runs to the next delimiter. */
function skipLiteral(text: string, start: number): number {
  let index = start;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === COMMA || code === CLOSE_OBJECT || code === CLOSE_ARRAY || code <= 32) break;
    if (code === QUOTE || code === OPEN_OBJECT || code === OPEN_ARRAY || code === COLON) return -1;
    index++;
  }
  return index > start ? index : -1;
}

/**
 * A scanned chunk in canonical form, for a surface that translates it: parsed and checked as the
 * chunk schema, without its usage (reported on its own). Undefined when it does not fit the schema.
 */
export function parseScannedChunk(text: string): ChunkWire | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = chunkWireSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const { usage: _reported, ...content } = parsed.data;
  return content;
}
