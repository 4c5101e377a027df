import { describeWith } from "@gw/testing";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { startTopology, type Topology, twoEndpointCatalog } from "./topology.js";

// Issue 14: every edge routes on health measured from every edge's traffic. The generations app's health
// aggregator consumes the usage events from Kafka into minute buckets in PostgreSQL; each edge (and the
// keys app's endpoints view) polls the figures every second.

const FAILING = "health/failing";
const SPEED = "health/speed";
// Stated freshness: an event is visible to routing on another edge within this (measured ~1-3 s).
const FRESHNESS_BOUND_MS = 15_000;

interface Served {
  status: number;
  provider: string | undefined;
}

describeWith(["postgres", "kafka"], "measured endpoint health across edges", () => {
  let topology: Topology;

  beforeAll(async () => {
    topology = await startTopology(twoEndpointCatalog([FAILING, SPEED]));
  }, 120_000);

  afterAll(async () => {
    await topology?.stop();
  });

  afterEach(() => {
    for (const edge of topology?.edges ?? []) edge.openai.setScenario([]);
  });

  async function chat(edgeUrl: string, model: string, extra: Record<string, unknown> = {}): Promise<Served> {
    const response = await fetch(`${edgeUrl}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${topology.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model, messages: [{ role: "user", content: "hello there" }], ...extra }),
    });
    const text = await response.text();
    if (extra.stream === true) return { status: response.status, provider: streamedProvider(text) };
    const body = JSON.parse(text) as { provider?: string };
    return { status: response.status, provider: body.provider };
  }

  function streamedProvider(text: string): string | undefined {
    const match = /"provider":"([^"]+)"/.exec(text);
    return match?.[1];
  }

  it("an endpoint failing on edge A is routed last on edge B, which never saw it fail", async () => {
    const [edgeA, edgeB] = topology.edges;
    // By price openai comes first on both edges while nothing is measured.
    expect(await chat(edgeB.url, FAILING, { provider: { sort: "price" } })).toEqual({
      status: 200,
      provider: "openai",
    });
    edgeA.openai.setScenario([{ name: "fail", status: 503 }]);
    const firstFailureAt = Date.now();
    // Three failures are the fewest the status rule reads; edge B starts polling right after the third.
    for (let i = 0; i < 3; i++) {
      // Each request fails over from openai to groq on edge A.
      expect(await chat(edgeA.url, FAILING, { provider: { sort: "price" } })).toEqual({
        status: 200,
        provider: "groq",
      });
    }
    const failedAt = Date.now();
    edgeB.openai.clearRequests();
    let routedLastAt: number | undefined;
    while (Date.now() - failedAt < FRESHNESS_BOUND_MS) {
      const served = await chat(edgeB.url, FAILING, { provider: { sort: "price" } });
      expect(served.status).toBe(200);
      if (served.provider === "groq") {
        routedLastAt = Date.now();
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(routedLastAt, "edge B never routed openai last").toBeDefined();
    console.info(
      `health freshness: edge B routed openai last ${(routedLastAt ?? 0) - failedAt} ms after edge A's last failure, ${(routedLastAt ?? 0) - firstFailureAt} ms after its first`,
    );
    // Edge B's own openai upstream is healthy: once degraded it is not tried first any more.
    const before = edgeB.openai.requests().length;
    expect(await chat(edgeB.url, FAILING, { provider: { sort: "price" } })).toEqual({
      status: 200,
      provider: "groq",
    });
    expect(edgeB.openai.requests().length).toBe(before);
    // The endpoints view shows the same measured figures.
    const view = await fetch(`${topology.keysUrl}/api/v1/models/${FAILING}/endpoints`, {
      headers: { authorization: `Bearer ${topology.apiKey}` },
    });
    const endpoints = ((await view.json()) as { data: Record<string, unknown>[] }).data;
    const openai = endpoints.find((endpoint) => endpoint.provider_id === "openai");
    // Degraded (-1) or down (-2): edge B's own successes while the figures travelled count too.
    expect([-1, -2]).toContain(openai?.status);
    expect(openai?.uptime_last_30m).toBeLessThan(90);
    const groq = endpoints.find((endpoint) => endpoint.provider_id === "groq");
    expect(groq).toMatchObject({ status: 0, uptime_last_30m: 100 });
    expect(groq?.latency_last_30m).toMatchObject({ p50: expect.any(Number) });
  }, 60_000);

  it(":nitro follows the measured throughput the upstreams produce", async () => {
    const [edgeA, edgeB] = topology.edges;
    // Nothing measured yet: :nitro keeps the price order, openai first.
    expect((await chat(edgeA.url, `${SPEED}:nitro`)).provider).toBe("openai");
    // openai streams slowly on both edges; groq at full speed.
    for (const edge of [edgeA, edgeB]) edge.openai.setScenario([{ name: "slow-stream", ms: 40 }]);
    for (let i = 0; i < 3; i++) {
      expect(await chat(edgeA.url, SPEED, { stream: true, provider: { only: ["openai"] } })).toMatchObject({
        status: 200,
      });
      expect(await chat(edgeA.url, SPEED, { stream: true, provider: { only: ["groq"] } })).toMatchObject({
        status: 200,
      });
    }
    await expect
      .poll(async () => (await chat(edgeB.url, `${SPEED}:nitro`)).provider, {
        timeout: FRESHNESS_BOUND_MS,
        interval: 250,
      })
      .toBe("groq");
    // The endpoints view shows throughput. The keys app polls the figures on its own clock, so it may
    // still hold an older read than edge B's (under a loaded CI machine it did): it gets the same
    // freshness bound as routing.
    const throughputs = async () => {
      const view = await fetch(`${topology.keysUrl}/api/v1/models/${SPEED}/endpoints`, {
        headers: { authorization: `Bearer ${topology.apiKey}` },
      });
      const endpoints = (
        (await view.json()) as { data: { provider_id: string; throughput_last_30m: number | null }[] }
      ).data;
      const throughput = (id: string) =>
        endpoints.find((endpoint) => endpoint.provider_id === id)?.throughput_last_30m ?? 0;
      return { groq: throughput("groq"), openai: throughput("openai") };
    };
    await expect
      .poll(
        async () => {
          const { groq, openai } = await throughputs();
          return groq > openai && openai > 0;
        },
        { timeout: FRESHNESS_BOUND_MS, interval: 250 },
      )
      .toBe(true);
  }, 60_000);
});
