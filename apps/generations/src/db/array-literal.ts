/**
 * A PostgreSQL array literal (`{…}`) for one `unnest($n::type[])` parameter, built here rather than by
 * pg: pg's array serialisation (arrayString) quotes every element and runs two regular-expression
 * replaces on each, numbers and booleans included, which was the largest single item of the
 * generations consumer's profile at saturation (~14% of its CPU for ~45 columns per record). Here
 * numbers and booleans go unquoted, and a string is rewritten only when it holds a quote or backslash
 * (`bench/scripts/array-literal.mjs` compares the two on a batch).
 *
 * The elements pg would send: null and undefined are NULL, booleans t/f, numbers and bigints their
 * decimal text, a Date its ISO-8601 instant, an object its JSON (as pg does), a string itself. Every
 * element that is not NULL, a finite number, a bigint or a boolean is double-quoted, so no string (an
 * empty one, "NULL", one with braces, commas or spaces) is read as anything but itself.
 */
export function arrayLiteral(values: readonly unknown[]): string {
  // One join, not `+=` per element: the joined string is flat when pg measures and writes it.
  const elements = new Array<string>(values.length);
  for (let index = 0; index < values.length; index++) elements[index] = element(values[index]);
  return `{${elements.join(",")}}`;
}

const NEEDS_ESCAPE = /["\\]/;
const ESCAPED = /["\\]/g;

function element(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  switch (typeof value) {
    case "boolean":
      return value ? "t" : "f";
    case "bigint":
      return value.toString();
    case "number":
      return Number.isFinite(value) ? String(value) : quoted(String(value));
    case "string":
      return quoted(value);
    default:
      if (value instanceof Date) return quoted(value.toISOString());
      if (ArrayBuffer.isView(value)) throw new TypeError("arrayLiteral: binary elements are not supported");
      return quoted(JSON.stringify(value));
  }
}

function quoted(text: string): string {
  return NEEDS_ESCAPE.test(text) ? `"${text.replace(ESCAPED, "\\$&")}"` : `"${text}"`;
}
