import { memoryLogger } from "@gw/logger";
import type { GetEndpointHealthResponse } from "@gw/proto/generations/v1/health";
import { describe, expect, it, vi } from "vitest";
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

  it("reads each known status as itself", async () => {
    for (const status of ["ok", "degraded", "down"]) {
      const holder = new MeasuredHealthHolder(async () => figures(status, "v1"));
      await holder.refresh();
      expect(holder.get("m/x", "openai")?.status).toBe(status);
    }
  });

  it("warns once per outage and says when the refresh recovered", async () => {
    const answers = [new Error("down 1"), new Error("down 2"), figures("ok", "v1"), new Error("down 3")];
    const { logger, lines } = memoryLogger("info");
    const holder = new MeasuredHealthHolder(
      async () => {
        const answer = answers.shift();
        if (!answer || answer instanceof Error) throw answer ?? new Error("no answer");
        return answer;
      },
      { logger },
    );
    for (let poll = 0; poll < 4; poll++) await holder.refresh();
    const logged = lines().map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(logged.map(({ level, msg }) => [level, msg])).toEqual([
      [40, "endpoint health refresh failed"],
      [30, "endpoint health refresh recovered"],
      [40, "endpoint health refresh failed"],
    ]);
  });

  it("asks once for concurrent refreshes, polls every refreshMs once started, and stops", async () => {
    vi.useFakeTimers();
    try {
      let asked = 0;
      let release: () => void = () => undefined;
      const holder = new MeasuredHealthHolder(
        () => {
          asked++;
          return new Promise((resolve) => {
            release = () => resolve(figures("ok", `v${asked}`));
          });
        },
        { refreshMs: 5_000 },
      );
      const [first, second] = [holder.refresh(), holder.refresh()];
      release();
      expect(await first).toBe(true);
      expect(await second).toBe(true);
      expect(asked).toBe(1);
      const started = holder.start();
      release();
      await started;
      expect(asked).toBe(2);
      await vi.advanceTimersByTimeAsync(4_999);
      expect(asked).toBe(2);
      await vi.advanceTimersByTimeAsync(1);
      expect(asked).toBe(3);
      release();
      await vi.advanceTimersByTimeAsync(0);
      // A second start does not add a second timer.
      const again = holder.start();
      release();
      await again;
      expect(asked).toBe(4);
      await vi.advanceTimersByTimeAsync(5_000);
      expect(asked).toBe(5);
      release();
      await holder.stop();
      await vi.advanceTimersByTimeAsync(20_000);
      expect(asked).toBe(5);
    } finally {
      vi.useRealTimers();
    }
  });

  it("polls once a second by default", async () => {
    vi.useFakeTimers();
    try {
      let asked = 0;
      const holder = new MeasuredHealthHolder(async () => figures("ok", `v${++asked}`));
      await holder.start();
      await vi.advanceTimersByTimeAsync(3_000);
      expect(asked).toBe(4);
      await holder.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
