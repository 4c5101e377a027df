import { describe, expect, it } from "vitest";
import { generationIdFloor, generationIdTime, newGenerationId } from "./ids.js";

describe("generation ids", () => {
  it("carry their creation time and a random part that does not repeat across pool refills", () => {
    const at = Date.parse("2026-11-22T03:00:00.000Z");
    const ids = Array.from({ length: 5_000 }, () => newGenerationId(at));
    expect(new Set(ids).size).toBe(5_000);
    for (const id of ids.slice(0, 600)) {
      expect(id).toMatch(/^gen-[0-9a-z]{9}[0-9a-f]{16}$/);
      expect(generationIdTime(id)).toBe(at);
    }
  });

  it("sort by time", () => {
    const earlier = newGenerationId(1_000);
    const later = newGenerationId(2_000);
    expect(earlier < later).toBe(true);
  });

  it("sort below the floor of any later time and at or above the floor of their own", () => {
    const at = Date.parse("2026-08-30T00:00:00.000Z");
    const floor = generationIdFloor(at);
    for (const time of [0, 1, at - 86_400_000, at - 1]) expect(newGenerationId(time) < floor).toBe(true);
    for (const time of [at, at + 1, at + 36, Date.parse("2100-01-01T00:00:00Z")])
      expect(newGenerationId(time) >= floor).toBe(true);
  });

  it("reject ids that are not ours", () => {
    expect(generationIdTime("chatcmpl-123")).toBeUndefined();
  });
});
