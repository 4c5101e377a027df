import { afterEach, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "./test/harness.js";
import { testKey } from "./test/principals.js";
import { usageEventFor } from "./test/usage.js";

// A stopping edge (what SIGTERM runs): open streams finish within the shutdown deadline, a stream
// longer than it is cut and still metered, and the budget leases go back to billing.

const key = testKey("acct-shutdown");
const WORDS = 20;
let edge: EdgeHarness | undefined;

afterEach(async () => {
  await edge?.stop().catch(() => {});
  edge = undefined;
});

async function startStream(harness: EdgeHarness, chunkMs: number) {
  harness.primary.setScenario({ name: "slow-stream", ms: chunkMs });
  const prompt = Array.from({ length: WORDS }, (_, index) => `word${index}`).join(" ");
  const response = await fetch(`${harness.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key.secret}`, "content-type": "application/json" },
    body: JSON.stringify({
      model: "openai/gpt-4o-mini",
      stream: true,
      messages: [{ role: "user", content: prompt }],
    }),
  });
  expect(response.status).toBe(200);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const first = await reader.read();
  expect(first.done).toBe(false);
  const decoder = new TextDecoder();
  let text = decoder.decode(first.value, { stream: true });
  const rest = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return { text, cut: false };
        text += decoder.decode(value, { stream: true });
      }
    } catch {
      return { text, cut: true };
    }
  })();
  return { generationId: response.headers.get("x-generation-id") ?? "", rest };
}

describe("edge shutdown", () => {
  it("lets an open stream finish within the deadline, meters it and returns its lease", async () => {
    edge = await startEdgeHarness({ keys: [key], settings: { shutdownDeadlineMs: 10_000 } });
    edge.billing.leaseGrantPico = 1_000_000_000_000_000n;
    const stream = await startStream(edge, 50);
    const started = Date.now();
    await edge.stop();
    const elapsed = Date.now() - started;
    const { text, cut } = await stream.rest;
    expect(cut).toBe(false);
    expect(text).toContain("data: [DONE]");
    expect(text).toContain(`word${WORDS - 1}`);
    expect(elapsed).toBeLessThan(10_000);
    const usage = await usageEventFor(edge, stream.generationId);
    expect(usage).toMatchObject({ cancelled: false, streamed: true });
    expect(usage.completionTokens).toBeGreaterThan(WORDS);
    expect(edge.billing.leaseReturns.length).toBeGreaterThan(0);
  });

  it("cuts a stream still open at the deadline and still meters what it served", async () => {
    edge = await startEdgeHarness({ keys: [key], settings: { shutdownDeadlineMs: 400 } });
    edge.billing.leaseGrantPico = 1_000_000_000_000_000n;
    const stream = await startStream(edge, 200);
    const started = Date.now();
    const stopping = edge.stop();
    const { text, cut } = await stream.rest;
    // Cut at the deadline, not when the upstream would have finished (20 chunks x 200 ms).
    expect(Date.now() - started).toBeLessThan(2_000);
    await stopping;
    expect(cut || !text.includes("[DONE]")).toBe(true);
    const usage = await usageEventFor(edge, stream.generationId);
    expect(usage).toMatchObject({ cancelled: true, streamed: true });
    expect(usage.completionTokens).toBeGreaterThan(0);
    expect(usage.completionTokens).toBeLessThan(WORDS);
    expect(edge.billing.leaseReturns.length).toBeGreaterThan(0);
  });
});
