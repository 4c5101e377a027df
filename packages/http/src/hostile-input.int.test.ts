import { connect } from "node:net";
import { silentLogger } from "@gw/logger";
import express from "express";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { errorHandler, notFoundHandler } from "./errors.js";
import { jsonBody } from "./json.js";
import { type Listening, listen } from "./listen.js";
import { rejectMalformedUrl } from "./url-check.js";
import { parseOrThrow } from "./validate.js";

// The body-reading layer every app shares, fed hostile input over a real socket: whatever arrives, the
// answer is below 500, a refusal is in the error envelope, and only an accepted body is stored.

const RUNS = { numRuns: 60 };
const BODY_TIMEOUT_MS = 400;
const item = z.object({ name: z.string().min(1).max(200), tags: z.array(z.string()).max(10).optional() });

let server: Listening;
const stored: unknown[] = [];

beforeAll(async () => {
  const app = express();
  app.use(rejectMalformedUrl());
  app.use(jsonBody({ limit: "64kb", timeoutMs: BODY_TIMEOUT_MS, refuseNul: true }));
  app.post("/items", (request, response) => {
    stored.push(parseOrThrow(item, request.body));
    response.status(201).json({ stored: stored.length });
  });
  app.get("/items/:id", (request, response) => {
    response.json({ id: request.params.id });
  });
  app.use(notFoundHandler());
  app.use(errorHandler(silentLogger()));
  server = await listen(app, "127.0.0.1", 0);
});

afterAll(() => server.close());

interface Answer {
  status: number;
  body: unknown;
}

async function post(body: string | Uint8Array, type = "application/json"): Promise<Answer> {
  const response = await fetch(`${server.url}/items`, {
    method: "POST",
    headers: { "content-type": type },
    body,
  });
  return { status: response.status, body: await response.json() };
}

/** Below 500, and a refusal is `{error: {type, message, code: status, metadata: {reason}}}`. */
function assertAnswered(answer: Answer): void {
  expect(answer.status).toBeLessThan(500);
  if (answer.status >= 400) {
    expect(answer.body).toMatchObject({
      error: {
        type: expect.any(String),
        message: expect.any(String),
        code: answer.status,
        metadata: { reason: expect.any(String) },
      },
    });
  }
}

/** Only an answered 201 may add to the store. */
async function storesOnlyWhatItAccepts(send: () => Promise<Answer>): Promise<Answer> {
  const before = stored.length;
  const answer = await send();
  assertAnswered(answer);
  expect(stored.length - before).toBe(answer.status === 201 ? 1 : 0);
  return answer;
}

const nested = (depth: number, open: string, close: string, inner = "1") =>
  open.repeat(depth) + inner + close.repeat(depth);

describe("hostile bodies", () => {
  it("any JSON value, wrong types included, is answered below 500", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        await storesOnlyWhatItAccepts(() => post(JSON.stringify(value)));
      }),
      RUNS,
    );
  });

  it("objects shaped like the schema with wrong or huge fields are refused with the field named", async () => {
    const field = fc.oneof(
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.string({ minLength: 201, maxLength: 300 }),
    );
    await fc.assert(
      fc.asyncProperty(field, async (name) => {
        const answer = await storesOnlyWhatItAccepts(() => post(JSON.stringify({ name })));
        expect(answer.status).toBe(400);
        expect(answer.body).toMatchObject({ error: { metadata: { field: "name" } } });
      }),
      RUNS,
    );
  });

  it("malformed JSON text is a 400 invalid_json", async () => {
    const text = fc.string({ maxLength: 200 }).filter((candidate) => {
      try {
        JSON.parse(candidate);
        return false;
      } catch {
        return candidate.trim().length > 0;
      }
    });
    await fc.assert(
      fc.asyncProperty(text, async (body) => {
        const answer = await storesOnlyWhatItAccepts(() => post(body));
        expect(answer.status).toBe(400);
      }),
      RUNS,
    );
  });

  it("invalid UTF-8 and arbitrary bytes are answered below 500", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (bytes) => {
        await storesOnlyWhatItAccepts(() => post(bytes));
      }),
      RUNS,
    );
    const lone = Uint8Array.from([
      0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0x22, 0x7d,
    ]);
    await storesOnlyWhatItAccepts(() => post(lone));
  });

  it("nesting deeper than 64 is a 400 json_too_deep; 64 is parsed", async () => {
    await fc.assert(
      // Up to 8,000 levels: deeper object nesting would pass the 64 KiB limit (a 413 first).
      fc.asyncProperty(fc.integer({ min: 65, max: 8_000 }), fc.boolean(), async (depth, arrays) => {
        const body = arrays ? nested(depth, "[", "]") : nested(depth, '{"a":', "}");
        const answer = await storesOnlyWhatItAccepts(() => post(body));
        expect(answer.status).toBe(400);
        expect(answer.body).toMatchObject({ error: { metadata: { reason: "json_too_deep" } } });
      }),
      { numRuns: 30 },
    );
    const deepest = await post(nested(64, "[", "]"));
    expect(deepest.body).not.toMatchObject({ error: { metadata: { reason: "json_too_deep" } } });
    // Brackets inside strings are text, not nesting.
    const quoted = await post(JSON.stringify({ name: "[".repeat(150) }));
    expect(quoted.status).toBe(201);
  });

  it("a deep body behind another JSON content type or gzip is refused the same way", async () => {
    const answer = await post(nested(5_000, "[", "]"), "application/vnd.api+json");
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { metadata: { reason: "json_too_deep" } } });
  });

  it("a deep body in UTF-7 or UTF-16LE is refused by its charset, before its depth could be misread (issue 33)", async () => {
    const depth = 9_000;
    // UTF-7 hides the opening brackets in a base64 run; in UTF-16LE the 0x22 byte of U+2200 makes a byte
    // scanner think they are inside a string. Both decoded to a body 9,000 deep that used to pass.
    const opening = Buffer.from("[".repeat(depth), "utf16le").swap16().toString("base64");
    const utf7 = Buffer.from(`{"name":"+IgA-","deep":+${opening}-${"]".repeat(depth)}}`, "latin1");
    const utf16 = Buffer.from(`{"name":"\u2200","deep":${"[".repeat(depth)}${"]".repeat(depth)}}`, "utf16le");
    for (const [bytes, charset] of [
      [utf7, "utf-7"],
      [utf16, "utf-16le"],
    ] as const) {
      const answer = await storesOnlyWhatItAccepts(() => post(bytes, `application/json; charset=${charset}`));
      expect(answer.status, charset).toBe(400);
      expect(answer.body).toMatchObject({
        error: {
          metadata: { reason: "unsupported_encoding", charset },
          message: expect.stringContaining(charset),
        },
      });
    }
    expect((await post(JSON.stringify({ name: "after" }))).status).toBe(201);
  });

  it("a NUL in any string or key is a 400 naming the field, and nothing is stored", async () => {
    const withNul = fc
      .tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }))
      .map(([a, b]) => `${a}\u0000${b}`);
    await fc.assert(
      fc.asyncProperty(withNul, fc.constantFrom("name", "tags", "key"), async (text, where) => {
        const body =
          where === "name"
            ? { name: text }
            : where === "tags"
              ? { name: "ok", tags: ["a", text] }
              : { [text]: 1, name: "ok" };
        const answer = await storesOnlyWhatItAccepts(() => post(JSON.stringify(body)));
        expect(answer.status).toBe(400);
        expect(answer.body).toMatchObject({ error: { metadata: { reason: "invalid_request" } } });
      }),
      RUNS,
    );
  });

  it("an unpaired surrogate in any string or key is a 400 naming the field; a pair is stored", async () => {
    const half = fc.constantFrom("\ud800", "\udbff", "\udc00", "\udfff");
    const withHalf = fc
      .tuple(fc.string({ maxLength: 10 }), half, fc.string({ maxLength: 10 }))
      .filter(([before, , after]) => !/[\ud800-\udfff]/.test(before + after))
      .map(([before, lone, after]) => `${before}${lone}${after}`);
    await fc.assert(
      fc.asyncProperty(withHalf, fc.constantFrom("name", "tags"), async (text, where) => {
        const body = where === "name" ? { name: text } : { name: "ok", tags: ["a", text] };
        const answer = await storesOnlyWhatItAccepts(() => post(JSON.stringify(body)));
        expect(answer.status).toBe(400);
        expect(answer.body).toMatchObject({
          error: { metadata: { field: where === "name" ? "name" : "tags[1]", reason: "invalid_request" } },
        });
      }),
      RUNS,
    );
    const paired = await storesOnlyWhatItAccepts(() => post(JSON.stringify({ name: "emoji \ud83d\ude00" })));
    expect(paired.status).toBe(201);
  });

  it("prototype keys neither pollute nor reach the store as such", async () => {
    const answers = [
      await post('{"__proto__":{"polluted":true},"name":"proto"}'),
      await post('{"constructor":{"prototype":{"polluted":true}},"name":"ctor"}'),
      await post('[{"__proto__":{"polluted":true}}]'),
    ];
    for (const answer of answers) assertAnswered(answer);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });

  it("a huge string is a 413 over the limit and stores nothing", async () => {
    const answer = await storesOnlyWhatItAccepts(() => post(JSON.stringify({ name: "x".repeat(100_000) })));
    expect(answer.status).toBe(413);
  });
});

describe("hostile URLs", () => {
  it("any path segment, escaped or raw, is answered below 500", async () => {
    const segment = fc.oneof(
      fc.string({ maxLength: 20 }).map(encodeURIComponent),
      fc.stringMatching(/^(%[0-9a-fA-F]{0,2}|[a-z0-9])*$/),
      fc.constantFrom("%00", "%ff", "%e0%80", "%", "%zz", "%C0%AE", "a%00b"),
    );
    await fc.assert(
      fc.asyncProperty(segment, async (id) => {
        const response = await fetch(`${server.url}/items/${id}`);
        const answer = { status: response.status, body: await response.json() };
        assertAnswered(answer);
      }),
      RUNS,
    );
  });

  it("a bad escape or a NUL in the path or the query is a 400 malformed_url", async () => {
    for (const path of ["/items/%ff", "/items/%00", "/items/a%0Db", "/items?id=%00", "/items/x?id=%zz"]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(400);
      expect(await response.json()).toMatchObject({ error: { metadata: { reason: "malformed_url" } } });
    }
    expect((await fetch(`${server.url}/items/caf%C3%A9?x=a+b`)).status).toBe(200);
  });
});

describe("slow bodies", () => {
  it("a body that never completes is a 408 body_timeout after the body timeout, and the connection closes", async () => {
    const started = Date.now();
    const { head, closed } = await new Promise<{ head: string; closed: boolean }>((resolve, reject) => {
      const socket = connect(server.port, "127.0.0.1");
      let received = "";
      socket.on("data", (chunk) => {
        received += chunk.toString();
      });
      socket.on("error", reject);
      socket.on("close", () => resolve({ head: received, closed: true }));
      socket.write(
        'POST /items HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":',
      );
    });
    expect(head).toMatch(/^HTTP\/1\.1 408/);
    expect(head).toContain('"code":408,"metadata":{"reason":"body_timeout"}');
    expect(closed).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS - 50);
  });
});
