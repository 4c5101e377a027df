import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";

const key = testKey("acct-server-timing");
let timed: EdgeHarness;
let plain: EdgeHarness;

beforeAll(async () => {
  [timed, plain] = await Promise.all([
    startEdgeHarness({ keys: [key], env: { SERVER_TIMING: "true" } }),
    startEdgeHarness({ keys: [key] }),
  ]);
});

afterAll(async () => {
  await Promise.all([timed?.stop(), plain?.stop()]);
});

function chat(edge: EdgeHarness): Promise<Response> {
  return fetch(`${edge.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key.secret}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "openai/gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }),
  });
}

/** `name;dur=1.234` entries, nothing else: no descriptions, no identifiers. */
const ENTRY = /^([a-z_]+);dur=(\d+\.\d{3})$/;

describe("Server-Timing (SERVER_TIMING=true)", () => {
  it("names every stage of a non-streamed chat in order, with durations that add up to the total", async () => {
    const response = await chat(timed);
    expect(response.status).toBe(200);
    await response.json();
    const header = response.headers.get("server-timing");
    expect(header).not.toBeNull();
    const entries = (header as string).split(", ").map((entry) => {
      const match = ENTRY.exec(entry);
      expect(match, entry).not.toBeNull();
      return { name: (match as RegExpExecArray)[1], ms: Number((match as RegExpExecArray)[2]) };
    });
    expect(entries.map((entry) => entry.name)).toEqual([
      "receive",
      "auth",
      "parse",
      "plan",
      "admit",
      "prepare",
      "connect",
      "first_byte",
      "body",
      "publish",
      "write",
      "total",
    ]);
    const stages = entries.slice(0, -1).reduce((sum, entry) => sum + entry.ms, 0);
    const total = entries.at(-1)?.ms ?? 0;
    // Each duration is rounded to a microsecond; the total is measured, not summed.
    expect(Math.abs(stages - total)).toBeLessThan(0.02);
    expect(total).toBeGreaterThan(0);
  });

  it("carries nothing about the caller or the request: no key, hash, account, generation id or model", async () => {
    const response = await chat(timed);
    const body = (await response.json()) as { id: string };
    const header = response.headers.get("server-timing") ?? "";
    for (const secretish of [
      key.secret,
      key.principal.keyHash,
      "acct-server-timing",
      body.id,
      "gpt-4o-mini",
      "openai",
    ])
      expect(header).not.toContain(secretish);
  });
});

describe("Server-Timing by default", () => {
  it("is absent", async () => {
    const response = await chat(plain);
    expect(response.status).toBe(200);
    await response.json();
    expect(response.headers.get("server-timing")).toBeNull();
  });
});
