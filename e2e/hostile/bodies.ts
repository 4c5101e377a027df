import fc from "fast-check";

// Hostile request bodies built from one valid body of the route (its template): every field in turn
// replaced by a wrong type, an unstorable or huge string, deep nesting or prototype keys, the text
// broken, invalid UTF-8 spliced in. Each body is the bytes a client would send, with a label for the
// report. Replacements are spliced in as JSON text, so values JSON.stringify cannot produce (1e400,
// 10,000 open brackets, a raw `__proto__` key) reach the server as sent.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = (string | number)[];

export interface HostileBody {
  kind: string;
  bytes: Buffer;
}

/** A string no template contains, replaced in the serialised text by the raw fragment. */
const MARK = "\u0001hostile-mark\u0001";
const MARK_TEXT = JSON.stringify(MARK);

/** Every node of the template (the root included), with its path. */
function nodes(value: Json, path: Path = []): { path: Path; value: Json }[] {
  const own = [{ path, value }];
  if (Array.isArray(value)) return [...own, ...value.flatMap((item, index) => nodes(item, [...path, index]))];
  if (typeof value === "object" && value !== null)
    return [...own, ...Object.entries(value).flatMap(([key, item]) => nodes(item, [...path, key]))];
  return own;
}

function replaced(value: Json, path: Path, replacement: Json): Json {
  const [head, ...rest] = path;
  if (head === undefined) return replacement;
  if (Array.isArray(value))
    return value.map((item, index) => (index === head ? replaced(item, rest, replacement) : item));
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        key === head ? replaced(item, rest, replacement) : item,
      ]),
    );
  return value;
}

/** The template with the node at `path` replaced by raw JSON text (which need not be valid JSON). */
export function splice(template: Json, path: Path, fragment: string): string {
  return JSON.stringify(replaced(template, path, MARK)).replace(MARK_TEXT, () => fragment);
}

/** A body that fast-check reports by its kind, size and first bytes (a failing 200 kB case stays readable). */
function hostile(kind: string, bytes: Buffer): HostileBody {
  const preview = () =>
    `${kind}, ${bytes.length} bytes: ${JSON.stringify(bytes.subarray(0, 160).toString("latin1"))}`;
  return { kind, bytes, [fc.toStringMethod]: preview } as HostileBody;
}

const text = (kind: string, body: string): HostileBody => hostile(kind, Buffer.from(body, "utf8"));

/** Values of every JSON type and the numbers JavaScript reads oddly. */
const wrongValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "null",
    "true",
    "false",
    "0",
    "-1",
    "0.5",
    "-0",
    "1e400",
    "-1e400",
    "123456789012345678901234567890",
    "9007199254740993",
    '""',
    '" "',
    "[]",
    "{}",
    "[null]",
    '{"":null}',
    '["a",1,null,{}]',
  ),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 40 }).map((value) => JSON.stringify(value)),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
);

/** Characters PostgreSQL, HTTP headers or a JSON reader may choke on, placed inside ordinary text. */
const nastyText: fc.Arbitrary<string> = fc
  .tuple(
    fc.string({ maxLength: 12 }),
    fc.constantFrom(
      "\u0000",
      "\ud800",
      "\udfff",
      "\udc00\ud800",
      "\r\n",
      "\r",
      "\n",
      "\u2028",
      "\ufeff",
      "\u202e",
      "\u001b[31m",
      "%00",
      "%ff",
      "../",
      "\u0024{jndi:ldap://x}",
      "'; drop table keys; --",
      "\\",
    ),
    fc.string({ maxLength: 12 }),
  )
  .map(([before, nasty, after]) => `${before}${nasty}${after}`);

const PROTOTYPE_MEMBERS = [
  '"__proto__":{"polluted":true,"admin":true}',
  '"__proto__":null',
  '"constructor":{"prototype":{"polluted":true}}',
  '"prototype":{"polluted":true}',
  '"toString":1',
  '"hasOwnProperty":"x"',
  '"valueOf":{}',
];

/** Bytes that are not UTF-8: stray continuation bytes, overlong forms, encoded surrogates, 5-byte forms. */
const INVALID_UTF8 = [
  [0xff],
  [0x80],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xe2, 0x82],
  [0xfe, 0xfe],
];

export interface BodyOptions {
  /** Largest string spliced in by the huge-string case (the route's own limit is tested separately). */
  hugeChars?: number;
}

/**
 * Every kind of hostile body for the route whose valid body is `template`, as one arbitrary: fast-check
 * picks the kind, the field and the value, and shrinks a failure to the smallest case. (The suites run
 * hostileBodyKinds, each kind on its own, so that no kind goes undrawn on a run.)
 */
export function hostileBodies(template: Json, options: BodyOptions = {}): fc.Arbitrary<HostileBody> {
  return fc.oneof(...hostileBodyKinds(template, options).map(([, arbitrary]) => arbitrary));
}

/**
 * The kinds of hostile body, named, each an arbitrary of its own: the suites exercise every kind on
 * every route on every run, and randomise only within a kind (the field, the value).
 */
export function hostileBodyKinds(
  template: Json,
  options: BodyOptions = {},
): [kind: string, arbitrary: fc.Arbitrary<HostileBody>][] {
  const all = nodes(template);
  const paths = all.map((node) => node.path);
  const stringPaths = all.filter((node) => typeof node.value === "string").map((node) => node.path);
  const objectPaths = all
    .filter((node) => typeof node.value === "object" && node.value !== null && !Array.isArray(node.value))
    .map((node) => node.path);
  const serialised = JSON.stringify(template);
  const pick = (list: Path[]) => fc.constantFrom(...(list.length > 0 ? list : [[]]));

  const wrongTypes = fc
    .tuple(pick(paths), wrongValue)
    .map(([path, fragment]) => text("wrong type", splice(template, path, fragment)));
  const missingField = fc.constantFrom(...paths.filter((path) => path.length > 0)).map((path) => {
    const parent = path.slice(0, -1);
    const key = path[path.length - 1];
    const holder = all.find((node) => JSON.stringify(node.path) === JSON.stringify(parent))?.value;
    if (Array.isArray(holder))
      return text(
        "field missing",
        splice(template, parent, JSON.stringify(holder.filter((_, index) => index !== key))),
      );
    const rest = Object.fromEntries(
      Object.entries(holder as Record<string, Json>).filter(([name]) => name !== key),
    );
    return text("field missing", splice(template, parent, JSON.stringify(rest)));
  });
  const unstorable = fc
    .tuple(pick(stringPaths), nastyText)
    .map(([path, value]) =>
      text("NUL / lone surrogate / control text", splice(template, path, JSON.stringify(value))),
    );
  const unstorableKey = fc
    .tuple(pick(objectPaths), nastyText)
    .map(([path, key]) =>
      text(
        "NUL / lone surrogate in a key",
        splice(template, path, withMember(template, path, `${JSON.stringify(key)}:1`)),
      ),
    );
  const prototypeKeys = fc
    .tuple(pick(objectPaths), fc.constantFrom(...PROTOTYPE_MEMBERS))
    .map(([path, member]) =>
      text("prototype keys", splice(template, path, withMember(template, path, member))),
    );
  const deep = fc
    .tuple(pick(paths), fc.integer({ min: 65, max: 20_000 }), fc.boolean())
    .map(([path, depth, arrays]) =>
      text(
        "deep nesting",
        splice(
          template,
          path,
          arrays ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth),
        ),
      ),
    );
  const huge = fc
    .tuple(
      pick(stringPaths),
      fc.integer({ min: 10_000, max: options.hugeChars ?? 200_000 }),
      fc.constantFrom("x", "é", "😀", "\\n"),
    )
    .map(([path, length, unit]) =>
      text("huge string", splice(template, path, `"${unit.repeat(Math.ceil(length / unit.length))}"`)),
    );
  const malformed = fc
    .tuple(
      fc.nat({ max: serialised.length }),
      fc.constantFrom("", "{", "}", "[", "]", ",", ":", '"', "\\", "\\u12", "'", "NaN", "undefined", "//"),
    )
    .map(([at, insert]) => serialised.slice(0, at) + insert + (insert === "" ? "" : serialised.slice(at)))
    .filter((candidate) => !parses(candidate))
    .map((candidate) => text("malformed JSON", candidate));
  const invalidUtf8 = fc
    .tuple(fc.nat({ max: serialised.length }), fc.constantFrom(...INVALID_UTF8))
    .map(([at, bytes]) => {
      const raw = Buffer.from(serialised, "utf8");
      return hostile(
        "invalid UTF-8",
        Buffer.concat([raw.subarray(0, at), Buffer.from(bytes), raw.subarray(at)]),
      );
    });
  const anyJson = fc.jsonValue({ maxDepth: 4 }).map((value) => text("any JSON value", JSON.stringify(value)));
  const anyBytes = fc
    .uint8Array({ maxLength: 200 })
    .map((bytes) => hostile("arbitrary bytes", Buffer.from(bytes)));

  return [
    ["wrong type", wrongTypes],
    ...(paths.length > 1 ? [["field missing", missingField] as [string, fc.Arbitrary<HostileBody>]] : []),
    ["NUL / lone surrogate / control text", unstorable],
    ["NUL / lone surrogate in a key", unstorableKey],
    ["prototype keys", prototypeKeys],
    ["deep nesting", deep],
    ["huge string", huge],
    ["malformed JSON", malformed],
    ["invalid UTF-8", invalidUtf8],
    ["any JSON value", anyJson],
    ["arbitrary bytes", anyBytes],
  ];
}

/** The object at `path` as JSON text with `member` (raw `"name":value` text) as its first member. */
function withMember(template: Json, path: Path, member: string): string {
  const target = nodes(template).find((node) => JSON.stringify(node.path) === JSON.stringify(path))?.value;
  const inner = JSON.stringify(target ?? {}).slice(1, -1);
  return `{${member}${inner.length > 0 ? `,${inner}` : ""}}`;
}

function parses(candidate: string): boolean {
  try {
    JSON.parse(candidate);
    return true;
  } catch {
    return false;
  }
}

/** Levels of the charset-disguised bodies: far past any recursive walk's stack (issue 33 used 20,000). */
const DISGUISED_DEPTH = 30_000;

/**
 * The template with a member nested DISGUISED_DEPTH deep, in a charset whose bytes hide the brackets
 * from a depth check that reads them as UTF-8 (issue 33's critical finding): UTF-7 writes the opening
 * brackets base64-shifted (`+AFsAWwBb…-`); UTF-16LE puts U+2200 (bytes 00 22) before them, whose 0x22
 * byte makes a byte scanner believe the brackets are inside a string. Each with its Content-Type.
 */
export function charsetDisguisedBodies(template: Json): { kind: string; type: string; bytes: Buffer }[] {
  const object = typeof template === "object" && template !== null && !Array.isArray(template);
  const base = JSON.stringify(object ? { ...template, hostile: "\u2200" } : { hostile: "\u2200" });
  const prefix = `${base.slice(0, -1)},"deep":`;
  const closing = `${"]".repeat(DISGUISED_DEPTH)}}`;
  const opening = Buffer.from("[".repeat(DISGUISED_DEPTH), "utf16le").swap16().toString("base64");
  const asciiPrefix = prefix.replace("\u2200", "+IgA-");
  return [
    {
      kind: "deep body in UTF-7",
      type: "application/json; charset=utf-7",
      bytes: Buffer.from(`${asciiPrefix}+${opening.replace(/=+$/, "")}-${closing}`, "latin1"),
    },
    {
      kind: "deep body in UTF-16LE",
      type: "application/json; charset=utf-16le",
      bytes: Buffer.from(`${prefix}${"[".repeat(DISGUISED_DEPTH)}${closing}`, "utf16le"),
    },
  ];
}
