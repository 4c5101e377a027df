import type { GetEndpointHealthResponse } from "@gw/proto/generations/v1/health";
import { describe, expect, it } from "vitest";
import { MeasuredHealthHolder } from "./measured-health.js";

const figures = (status: string, version: string): GetEndpointHealthResponse => ({
  version,
  notModified: false,
  computedAtMs: 1n,
  endpoints: [
    {
      model: "m/x",
      providerId: "openai",
      attempts: 10,
      failures: 6,
      uptime: 0.4,
      errorRate: 0.6,
      latencyMs: { p50: 200, p75: 300, p90: 500, p99: 700 },
      throughput: undefined,
      status,
    },
  ],
});

describe("MeasuredHealthHolder", () => {
  it("polls with the version it holds, keeps the figures on not_modified and on a failed poll", async () => {
    const answers: (GetEndpointHealthResponse | Error)[] = [
      figures("down", "v1"),
      { version: "v1", notModified: true, computedAtMs: 2n, endpoints: [] },
      new Error("keys unavailable"),
      figures("ok", "v2"),
    ];
    const asked: string[] = [];
    const holder = new MeasuredHealthHolder(async (request) => {
      asked.push(request.knownVersion);
      const answer = answers.shift();
      if (!answer || answer instanceof Error) throw answer ?? new Error("no answer");
      return answer;
    });
    expect(holder.get("m/x", "openai")).toBeUndefined();
    expect(await holder.refresh()).toBe(true);
    expect(holder.get("m/x", "openai")).toMatchObject({ status: "down", uptime: 0.4, throughput: undefined });
    expect(await holder.refresh()).toBe(false);
    expect(await holder.refresh()).toBe(false);
    expect(holder.get("m/x", "openai")?.status).toBe("down");
    expect(await holder.refresh()).toBe(true);
    expect(holder.get("m/x", "openai")?.status).toBe("ok");
    expect(holder.get("m/x", "groq")).toBeUndefined();
    expect(asked).toEqual(["", "v1", "v1", "v1"]);
  });

  it("an unknown status from a newer control plane reads as ok, not as a made-up degradation", async () => {
    const holder = new MeasuredHealthHolder(async () => figures("flaky", "v1"));
    await holder.refresh();
    expect(holder.get("m/x", "openai")?.status).toBe("ok");
  });
});
