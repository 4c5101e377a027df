import { describe, expect, it } from "vitest";
import { endpointStatus, formatLatency, formatThroughput, formatUptime } from "./health";

describe("endpoint health figures", () => {
  it("names OpenRouter's status codes and says when nothing was measured", () => {
    expect(endpointStatus(0)).toBe("Up");
    expect(endpointStatus(-1)).toBe("Degraded");
    expect(endpointStatus(-2)).toBe("Down");
    expect(endpointStatus(null)).toBe("No data yet");
  });

  it("never shows a status better than the uptime beside it (issue 34: Up beside Uptime 0%)", () => {
    expect(endpointStatus(0, 0)).toBe("Down");
    expect(endpointStatus(0, 80)).toBe("Degraded");
    expect(endpointStatus(0, 99.5)).toBe("Up");
    expect(endpointStatus(-2, 100)).toBe("Down");
    expect(endpointStatus(null, 0)).toBe("Down");
  });

  it("formats uptime, latency and throughput, with — for no data", () => {
    expect(formatUptime(100)).toBe("100%");
    expect(formatUptime(97.25)).toBe("97.3%");
    expect(formatUptime(0)).toBe("0%");
    expect(formatUptime(null)).toBe("—");
    expect(formatLatency({ p50: 412.4, p90: 1033.6 })).toBe("412 / 1034 ms");
    expect(formatLatency(null)).toBe("—");
    expect(formatThroughput(85.6)).toBe("86 tok/s");
    expect(formatThroughput(4.25)).toBe("4.3 tok/s");
    expect(formatThroughput(null)).toBe("—");
  });
});
