import { getEventListeners } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { type FakeServer, startFakeOpenAi } from "@gw/fake-providers";
import { sharedTimerWheel } from "@gw/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isFailure, UpstreamHttp, type UpstreamRequest } from "./http.js";

// The total timeout must end with the attempt: a timer that outlives a finished call keeps its
// signals alive for the whole timeout, which under load is memory growing without bound.

const TOTAL_MS = 1_000;

const chat: UpstreamRequest = {
  method: "POST",
  path: "/chat/completions",
  headers: { "content-type": "application/json", authorization: "Bearer sk-test" },
  body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }),
};

describe("UpstreamHttp total timeout", () => {
  let upstream: FakeServer;
  let http: UpstreamHttp;

  beforeAll(async () => {
    upstream = await startFakeOpenAi({ host: "127.0.0.1", port: 0 });
    // Long enough that reading a small body never takes it on a loaded machine; the tests wait it out.
    http = new UpstreamHttp(upstream.baseUrl, { connectMs: 5_000, firstByteMs: 5_000, totalMs: TOTAL_MS });
  });

  afterAll(async () => {
    await http.close();
    await upstream.close();
  });

  it("is cleared once the answer's body has been read to the end", async () => {
    const signals = http.signals(new AbortController().signal);
    const response = await http.send(chat, signals);
    if (isFailure(response)) throw new Error(`upstream failed: ${response.message}`);
    expect(response.status).toBe(200);
    await response.body.json();
    // Past the total timeout: a timer that outlived the attempt would have fired by now.
    await sleep(TOTAL_MS + 500);
    expect(signals.total.aborted).toBe(false);
    expect(signals.combined.aborted).toBe(false);
  });

  it("still aborts an attempt whose body is left unfinished past the total timeout", async () => {
    const signals = http.signals(new AbortController().signal);
    const response = await http.send(chat, signals);
    if (isFailure(response)) throw new Error(`upstream failed: ${response.message}`);
    await expect.poll(() => signals.total.aborted, { timeout: TOTAL_MS + 10_000 }).toBe(true);
    expect(signals.combined.aborted).toBe(true);
    await response.body.dump().catch(() => undefined);
  });

  it("aborts the combined signal when the client leaves, and is a cancellation, not a timeout", async () => {
    const client = new AbortController();
    const signals = http.signals(client.signal);
    client.abort();
    expect(signals.combined.aborted).toBe(true);
    expect(signals.total.aborted).toBe(false);
    const response = await http.send(chat, signals);
    expect(isFailure(response) && response.kind).toBe("cancelled");
  });

  it("stops listening to the client's signal once the attempt's body has closed", async () => {
    const client = new AbortController();
    const signals = http.signals(client.signal);
    expect(getEventListeners(client.signal, "abort")).toHaveLength(1);
    const response = await http.send(chat, signals);
    if (isFailure(response)) throw new Error(`upstream failed: ${response.message}`);
    await response.body.json();
    await expect.poll(() => getEventListeners(client.signal, "abort").length).toBe(0);
    client.abort();
    expect(signals.combined.aborted).toBe(false);
  });

  it("keeps its total timeout on the shared timer wheel while it runs, and takes it off at the end", async () => {
    const before = sharedTimerWheel.size;
    const signals = http.signals(new AbortController().signal);
    expect(sharedTimerWheel.size).toBe(before + 1);
    const response = await http.send(chat, signals);
    if (isFailure(response)) throw new Error(`upstream failed: ${response.message}`);
    await response.body.json();
    expect(sharedTimerWheel.size).toBe(before);
  });
});
