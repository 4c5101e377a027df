import { describe, expect, it } from "vitest";
import { attemptStatus, attemptsLabel, failureSummary, mayStillBeRecorded, statusLabel } from "./status";

const record = (finish: string | null, statuses: number[], cancelled = false) => ({
  cancelled,
  finish_reason: finish,
  attempts: statuses.map((status) => ({ status })),
});

describe("statusLabel", () => {
  it("names how the request ended", () => {
    expect(statusLabel(record("stop", [200]))).toBe("Completed (stop)");
    expect(statusLabel(record("length", [200]))).toBe("Completed (length)");
    expect(statusLabel(record(null, [200]))).toBe("Completed");
    expect(statusLabel(record("error", [200]))).toBe("Error");
    expect(statusLabel(record("stop", [200], true))).toBe("Cancelled");
  });
});

describe("attemptsLabel", () => {
  it("counts the failed attempts before the one that answered", () => {
    expect(attemptsLabel(record("stop", [200]))).toBe("1");
    expect(attemptsLabel(record("stop", [503, 0, 200]))).toBe("3 (2 failed)");
    expect(attemptsLabel(record("stop", []))).toBe("1");
  });

  it("says when no answer arrived", () => {
    expect(attemptStatus(0)).toBe("No answer");
    expect(attemptStatus(429)).toBe("429");
  });
});

describe("mayStillBeRecorded (issue 34: a malformed id spun for 6 s before 'not found')", () => {
  const now = Date.parse("2026-11-27T18:00:00Z");
  const idAt = (ms: number) => `gen-${ms.toString(36).padStart(9, "0")}0123456789abcdef`;
  it("waits only for a well-formed id created in the last 30 seconds", () => {
    expect(mayStillBeRecorded(idAt(now - 2_000), now)).toBe(true);
    expect(mayStillBeRecorded(idAt(now - 60_000), now)).toBe(false);
    expect(mayStillBeRecorded("not-a-generation", now)).toBe(false);
    expect(mayStillBeRecorded("gen-xyz", now)).toBe(false);
  });
});

describe("failureSummary", () => {
  const attempt = (provider: string, status: number) => ({ provider, status });
  it("names each provider tried and its answer when the request ended in error", () => {
    expect(
      failureSummary({
        cancelled: false,
        finish_reason: "error",
        attempts: [attempt("together", 429), attempt("openai", 0)],
      }),
    ).toBe("Every provider tried failed (together: 429, openai: no answer).");
    expect(failureSummary({ cancelled: false, finish_reason: "error", attempts: [] })).toMatch(
      /before any provider/,
    );
  });
  it("says nothing for a completed or cancelled request", () => {
    expect(failureSummary({ cancelled: false, finish_reason: "stop", attempts: [] })).toBeUndefined();
    expect(failureSummary({ cancelled: true, finish_reason: "error", attempts: [] })).toBeUndefined();
  });
});
