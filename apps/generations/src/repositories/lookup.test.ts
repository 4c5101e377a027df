import { newGenerationId } from "@gw/events";
import { describe, expect, it } from "vitest";
import { isRecentId, PENDING_WINDOW_MS } from "./lookup.js";

describe("pending generation ids", () => {
  const now = Date.parse("2026-11-22T12:00:00Z");

  it("treats our ids minted within the window as pending", () => {
    expect(isRecentId(newGenerationId(now - 1_000), now)).toBe(true);
    expect(isRecentId(newGenerationId(now - PENDING_WINDOW_MS + 1), now)).toBe(true);
    expect(isRecentId(newGenerationId(now + 5_000), now)).toBe(true);
  });

  it("does not for old ids or ids that are not ours", () => {
    expect(isRecentId(newGenerationId(now - PENDING_WINDOW_MS), now)).toBe(false);
    expect(isRecentId(newGenerationId(now - 86_400_000), now)).toBe(false);
    expect(isRecentId("chatcmpl-abc", now)).toBe(false);
    expect(isRecentId("gen-", now)).toBe(false);
  });
});
