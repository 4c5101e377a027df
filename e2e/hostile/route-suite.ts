import fc from "fast-check";
import { afterAll, expect, it } from "vitest";
import { type BodyOptions, charsetDisguisedBodies, hostileBodyKinds, type Json } from "./bodies.js";
import type { HostileGateway } from "./gateway.js";
import { assertProperty, casesPerKind, type ErrorShape, expectHandled, Tally, type Target } from "./suite.js";
import { type Answer, rawRequest, send, sendRaw } from "./wire.js";

export interface HostileRoute {
  /** For the report, e.g. "chat completions". */
  name: string;
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** The route's path with any query, as a valid call sends it. */
  path: () => string;
  shape: ErrorShape;
  /** A valid body (POST/PATCH): what the hostile bodies are built from. */
  template?: Json;
  /** The credential header a valid call sends. */
  auth: () => [string, string];
  state: () => Promise<unknown>;
  bodies?: BodyOptions;
  /** The gateway's body limit for this route, in bytes: one byte more is the oversize case. */
  bodyLimitBytes?: number;
  /** The body timeout the route answers 408 after. */
  bodyTimeoutMs?: number;
  /** See Target.relayed (the provider proxy and the native pass-through surfaces). */
  relayed?: (answer: Answer, before: unknown, after: unknown) => boolean;
}

/** Header values Node's HTTP parser refuses: they must never reach the app, nor crash or hang it. */
const INJECTED = ["a\r\nx-injected: 1", "a\nx-injected: 1", "a\rb", "a\u0000b", "a\u0001b", "a\u007fb"];

/** Header names the gateway reads or forwards, and one it has never heard of. */
const HEADER_NAMES = [
  "content-type",
  "accept",
  "accept-encoding",
  "content-encoding",
  "anthropic-version",
  "anthropic-beta",
  "openai-organization",
  "x-goog-api-client",
  "http-referer",
  "x-title",
  "user-agent",
  "x-request-id",
  "x-forwarded-for",
  "x-forwarded-proto",
  "x-forwarded-host",
  "forwarded",
  "x-real-ip",
  "traceparent",
  "x-hostile",
];

/** Values Node accepts in a header (tabs, obs-text bytes, long runs) that a forwarder might not. */
const oddHeaderValue: fc.Arbitrary<string> = fc.oneof(
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
    maxLength: 60,
  }),
  fc.string({
    unit: fc.integer({ min: 0x80, max: 0xff }).map((code) => String.fromCharCode(code)),
    minLength: 1,
    maxLength: 20,
  }),
  fc.constantFrom(
    "\t",
    " a ",
    "gzip, br, zstd, deflate",
    "identity;q=0",
    "deflate",
    "br",
    "zstd",
    "x".repeat(8_000),
    "2023-06-01",
    "tools-2024-04-04,unknown-beta",
    "application/json; charset=latin1",
    "text/plain",
    "multipart/form-data; boundary=x",
    "application/x-www-form-urlencoded",
  ),
);

/**
 * The hostile-input cases every route gets: generated bodies (when it takes one), CR/LF and control
 * bytes in header values over a raw socket, odd but legal header values, one byte over the body limit,
 * and a body that never completes. Each answer is checked by expectHandled.
 */
export function hostileRouteSuite(gateway: () => HostileGateway, route: HostileRoute): void {
  const tally = new Tally(`${route.name} (${route.method})`);
  const target: Target = {
    shape: route.shape,
    tally,
    state: route.state,
    ...(route.relayed ? { relayed: route.relayed } : {}),
  };
  afterAll(() => {
    console.log(tally.summary());
    expect(tally.serverErrors).toBe(0);
  });

  const headers = (extra: Record<string, string> = {}): Record<string, string> => {
    const [name, value] = route.auth();
    return {
      [name]: value,
      ...(route.template === undefined ? {} : { "content-type": "application/json" }),
      ...extra,
    };
  };
  const callWith = (body: Buffer | undefined, extra?: Record<string, string>): Promise<Answer> =>
    send(gateway().url, {
      method: route.method,
      path: route.path(),
      headers: headers(extra),
      ...(body === undefined ? {} : { body }),
    });

  if (route.template !== undefined) {
    const template = route.template;
    it(`${route.name}: generated hostile bodies, every kind`, async () => {
      // Every kind on every run (enumerated), randomised within the kind.
      const kinds = hostileBodyKinds(template, route.bodies);
      const drawn = new Set<string>();
      for (const [kind, arbitrary] of kinds) {
        await assertProperty(
          arbitrary,
          async (body) => {
            drawn.add(kind);
            await expectHandled(target, body.kind, () => callWith(body.bytes));
          },
          casesPerKind(kinds.length),
        );
      }
      expect([...drawn].sort()).toEqual(kinds.map(([kind]) => kind).sort());
    });

    // Issue 33: the depth limit read the raw bytes before the charset was decoded, so these reached the
    // routes' recursive code (500s) and the control plane's NUL walk (a stack overflow outside any
    // handler that stopped the process).
    it(`${route.name}: a deep body in a charset other than UTF-8 is refused naming it, and the gateway lives on`, async () => {
      for (const body of charsetDisguisedBodies(template)) {
        const answer = await expectHandled(target, body.kind, () =>
          callWith(body.bytes, { "content-type": body.type }),
        );
        expect(answer.status, body.kind).toBe(400);
        expect(answer.text, body.kind).toContain(body.type.split("=")[1]);
        const alive = await send(gateway().url, { method: "GET", path: "/healthz" });
        expect(alive.status, `${body.kind}: the process still answers`).toBe(200);
      }
    });

    if (route.bodyLimitBytes !== undefined) {
      const limit = route.bodyLimitBytes;
      it(`${route.name}: one byte over the body limit is a 413`, async () => {
        const padding = limit + 1 - JSON.stringify({ ...(template as object), pad: "" }).length;
        const body = Buffer.from(
          JSON.stringify({ ...(template as object), pad: "p".repeat(Math.max(padding, 1)) }),
        );
        const answer = await expectHandled(target, "oversize body", () => callWith(body));
        expect(answer.status).toBe(413);
      });
    }

    if (route.bodyTimeoutMs !== undefined) {
      const timeoutMs = route.bodyTimeoutMs;
      it(`${route.name}: a body that never completes is a 408 after the body timeout`, async () => {
        const body = Buffer.from(JSON.stringify(template));
        const bytes = rawRequest({
          method: route.method,
          target: route.path(),
          headers: Object.entries(headers()),
          body,
        });
        const started = Date.now();
        const answer = await expectHandled(target, "slow body", () =>
          sendRaw(gateway().port, bytes, {
            splitAt: bytes.length - Math.ceil(body.length / 2),
            stall: true,
            timeoutMs: timeoutMs + 10_000,
          }),
        );
        expect(answer.status).toBe(408);
        expect(Date.now() - started).toBeLessThan(timeoutMs + 5_000);
      });
    }
  }

  it(`${route.name}: CR, LF, NUL and control bytes in header values (raw socket), every pair`, async () => {
    // Every (header, bad value) pair, each once: a finite set, enumerated rather than sampled.
    const names = [...new Set(["authorization", "content-type", "x-hostile", route.auth()[0]])];
    for (const name of names) {
      for (const value of INJECTED) {
        const list = Object.entries(headers()).filter(([existing]) => existing !== name);
        const body = route.template === undefined ? undefined : Buffer.from(JSON.stringify(route.template));
        const bytes = rawRequest({
          method: route.method,
          target: route.path(),
          headers: [...list, [name, value]],
          ...(body ? { body } : {}),
        });
        const answer = await expectHandled(target, "header injection", () => sendRaw(gateway().port, bytes));
        // CR LF ends a header, so "a\r\nx-injected: 1" is two ordinary headers; the others are refused.
        if (!value.includes("\r\n")) expect(answer.status, JSON.stringify([name, value])).toBe(400);
      }
    }
  });

  it(`${route.name}: odd but legal header values (raw socket), every header`, async () => {
    // Every header name on every run, the value randomised.
    for (const name of HEADER_NAMES) {
      await assertProperty(
        oddHeaderValue,
        async (value) => {
          const list = Object.entries(headers()).filter(([existing]) => existing !== name);
          const body = route.template === undefined ? undefined : Buffer.from(JSON.stringify(route.template));
          const bytes = rawRequest({
            method: route.method,
            target: route.path(),
            headers: [...list, [name, value]],
            ...(body ? { body } : {}),
          });
          await expectHandled(target, `header ${name}`, () => sendRaw(gateway().port, bytes));
        },
        casesPerKind(HEADER_NAMES.length),
      );
    }
  });
}

/** Raw URL text for one path segment or query value: bad escapes, NUL, separators, huge, unicode. */
const SEGMENT_CONSTANTS = [
  "%00",
  "%ff",
  "%c0%af",
  "%e0%80%80",
  "%",
  "%zz",
  "%2f",
  "%2e%2e",
  "..",
  "%5c",
  ";x=1",
  "%3b",
  "a%0d%0ab",
  "%ed%a0%80",
  "__proto__",
  "constructor",
  "null",
  "-1",
  "0",
  "1e400",
  "x".repeat(5_000),
  "%C3%A9",
  "%F0%9F%98%80",
];
/** The generated kinds of segment, beside the constants (each of which is sent on every run). */
const SEGMENT_KINDS: [string, fc.Arbitrary<string>][] = [
  ["encoded text", fc.string({ maxLength: 40 }).map((value) => encodeURIComponent(value))],
  [
    "percent-encoded bytes",
    fc
      .uint8Array({ minLength: 1, maxLength: 12 })
      .map((bytes) => [...bytes].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("")),
  ],
];
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...SEGMENT_CONSTANTS),
  ...SEGMENT_KINDS.map(([, arbitrary]) => arbitrary),
);

export interface HostileLookup {
  name: string;
  method: "GET" | "DELETE" | "POST" | "PATCH";
  /** The raw request target for a generated segment, e.g. `/api/v1/keys/${segment}`. */
  target: (segment: string) => string;
  shape: ErrorShape;
  auth: () => [string, string];
  state: () => Promise<unknown>;
  body?: Json;
}

/** Generated ids, path segments or query values, sent raw (no client normalises or refuses them). */
export function hostileLookupSuite(gateway: () => HostileGateway, lookup: HostileLookup): void {
  const tally = new Tally(`${lookup.name} (${lookup.method})`);
  const target: Target = { shape: lookup.shape, tally, state: lookup.state };
  afterAll(() => {
    console.log(tally.summary());
    expect(tally.serverErrors).toBe(0);
  });
  it(`${lookup.name}: generated ids and query values, every kind`, async () => {
    const check = async (segment: string) => {
      const body = lookup.body === undefined ? undefined : Buffer.from(JSON.stringify(lookup.body));
      const headers: [string, string][] = [lookup.auth()];
      if (body) headers.push(["content-type", "application/json"]);
      const bytes = rawRequest({
        method: lookup.method,
        target: lookup.target(segment),
        headers,
        ...(body ? { body } : {}),
      });
      await expectHandled(target, "hostile segment", () => sendRaw(gateway().port, bytes));
    };
    // Every constant on every run, then each generated kind, randomised within it.
    for (const segment of SEGMENT_CONSTANTS) await check(segment);
    for (const [, arbitrary] of SEGMENT_KINDS) {
      await assertProperty(arbitrary, check, casesPerKind(SEGMENT_KINDS.length));
    }
  });
}
