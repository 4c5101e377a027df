import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";

const flooder = testKey("acct-flood");
const neighbour = testKey("acct-flood-neighbour");
const chat = { model: "openai/gpt-4o-mini", messages: [{ role: "user" as const, content: "hi" }] };

function post(edge: EdgeHarness, secret: string, path = "/v1/chat/completions") {
  return fetch(`${edge.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    body: JSON.stringify(chat),
  });
}

describe("the edge's flood guard", () => {
  let edge: EdgeHarness;

  beforeAll(async () => {
    edge = await startEdgeHarness({
      keys: [flooder, neighbour],
      // A token per 5 s: on a loaded machine (seconds per request) the bucket must not refill mid-case.
      settings: { flood: { address: { perSecond: 0, burst: 1 }, key: { perSecond: 0.2, burst: 3 } } },
    });
  });

  afterAll(async () => {
    await edge?.stop();
  });

  it("answers a key far over its bucket 429 with Retry-After, in the surface's shape, and lifts by itself", async () => {
    const statuses = [];
    for (let index = 0; index < 6; index++) statuses.push((await post(edge, flooder.secret)).status);
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.slice(3)).toContain(429);
    const blocked = await post(edge, flooder.secret);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const body = (await blocked.json()) as {
      error: { code: number; metadata: { limit_source: string; reason: string } };
    };
    expect(body.error).toMatchObject({ metadata: { limit_source: "edge", reason: "flood_limited" } });
    const anthropic = await post(edge, flooder.secret, "/v1/messages");
    expect(anthropic.status).toBe(429);
    expect(((await anthropic.json()) as { type: string; error: { type: string } }).error.type).toBe(
      "rate_limit_error",
    );
    // Another key on the same (unlimited) address is not held back.
    expect((await post(edge, neighbour.secret)).status).toBe(200);
    await expect
      .poll(async () => (await post(edge, flooder.secret)).status, { timeout: 15_000, interval: 200 })
      .toBe(200);
  });
});

describe("the flood guard at its defaults", () => {
  let edge: EdgeHarness;
  const busy = testKey("acct-flood-busy");

  beforeAll(async () => {
    edge = await startEdgeHarness({ keys: [busy] });
  });

  afterAll(async () => {
    await edge?.stop();
  });

  it("never blocks a busy caller within reasonable use: 300 concurrent requests from one key and address", async () => {
    const client = new OpenAI({ apiKey: busy.secret, baseURL: `${edge.url}/v1`, maxRetries: 0 });
    const results = await Promise.allSettled(
      Array.from({ length: 300 }, () => client.chat.completions.create(chat)),
    );
    expect(results.filter((result) => result.status === "rejected")).toEqual([]);
  });
});

describe("the flood guard behind a proxy (TRUSTED_PROXIES)", () => {
  const caller = testKey("acct-flood-proxied");
  // One token per 10 s: a slow machine does not refill the bucket between the requests of a case.
  const address = { perSecond: 0.1, burst: 2 };
  let trusting: EdgeHarness;
  let untrusting: EdgeHarness;

  beforeAll(async () => {
    const flood = { address, key: { perSecond: 0, burst: 1 } };
    trusting = await startEdgeHarness({
      keys: [caller],
      settings: { flood, trustedProxies: ["127.0.0.0/8"] },
    });
    untrusting = await startEdgeHarness({ keys: [caller], settings: { flood } });
  });

  afterAll(async () => {
    await trusting?.stop();
    await untrusting?.stop();
  });

  const from = (edge: EdgeHarness, forwardedFor: string) =>
    fetch(`${edge.url}/v1/chat/completions`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${caller.secret}`,
        "content-type": "application/json",
        "x-forwarded-for": forwardedFor,
      },
      body: JSON.stringify(chat),
    });

  it("buckets each client named by a trusted proxy apart; a client's own left-hand entries change nothing", async () => {
    const first = [];
    for (let index = 0; index < 3; index++) first.push((await from(trusting, "203.0.113.1")).status);
    expect(first).toEqual([200, 200, 429]);
    // Another client behind the same proxy has its own bucket.
    expect((await from(trusting, "203.0.113.2")).status).toBe(200);
    // The blocked client cannot escape by writing another address to the left of what the proxy appended.
    expect((await from(trusting, "198.51.100.7, 203.0.113.1")).status).toBe(429);
  });

  it("ignores X-Forwarded-For from a peer it does not trust: one bucket for the peer whatever the header says", async () => {
    const statuses = [];
    for (const client of ["203.0.113.1", "203.0.113.2", "203.0.113.3"]) {
      statuses.push((await from(untrusting, client)).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });
});
