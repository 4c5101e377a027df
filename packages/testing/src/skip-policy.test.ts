import { describe, expect, it } from "vitest";
import { skipReport } from "./skip-policy.js";

const redisSkip = {
  file: "apps/billing/src/consumers/usage.int.test.ts",
  fullName:
    "usage consumer on Kafka [skipped: redis unavailable (TEST_REDIS_URL=redis://127.0.0.1:1 does not answer)] > debits once",
};

describe("skipReport", () => {
  it("passes a run that skipped nothing, saying nothing", () => {
    expect(skipReport([], {})).toEqual({ lines: [], fails: false });
  });

  it("names each skipped file, the missing service and the command that provides it, and fails", () => {
    const report = skipReport([redisSkip, { ...redisSkip, fullName: `${redisSkip.fullName} again` }], {});
    expect(report.fails).toBe(true);
    expect(report.lines).toContain(
      "  apps/billing/src/consumers/usage.int.test.ts (2): redis unavailable (TEST_REDIS_URL=redis://127.0.0.1:1 does not answer)",
    );
    expect(report.lines.find((line) => line.startsWith("  redis: "))).toMatch(
      /apt-get install -y redis-server/,
    );
    expect(report.lines.at(-1)).toMatch(/GW_ALLOW_SKIPS=1/);
  });

  it("accepts the skips only when the caller opted in with GW_ALLOW_SKIPS=1", () => {
    expect(skipReport([redisSkip], { GW_ALLOW_SKIPS: "1" }).fails).toBe(false);
    expect(skipReport([redisSkip], { GW_ALLOW_SKIPS: "true" }).fails).toBe(true);
  });

  it("never accepts skips under CI, whether CI=true or CI=1", () => {
    for (const CI of ["true", "1"])
      expect(skipReport([redisSkip], { CI, GW_ALLOW_SKIPS: "1" }).fails).toBe(true);
  });

  it("reports a test skipped in its own file without inventing a service", () => {
    const report = skipReport([{ file: "a.test.ts", fullName: "x > y" }], {});
    expect(report.lines[1]).toMatch(/a\.test\.ts \(1\): skipped in the test file itself/);
    expect(report.lines.some((line) => line.includes("missing services"))).toBe(false);
  });
});
