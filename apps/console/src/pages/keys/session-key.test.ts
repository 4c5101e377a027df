import { describe, expect, it } from "vitest";
import { labelOf } from "./session-key";

describe("labelOf", () => {
  it("masks a management key as the API labels it: prefix, first 3, ..., last 4", () => {
    expect(labelOf(`lr_mgmt_abc${"0".repeat(41)}wxyz`)).toBe("lr_mgmt_abc...wxyz");
  });

  it("keeps an API key's own prefix", () => {
    expect(labelOf(`lr_live_123${"f".repeat(41)}9876`)).toBe("lr_live_123...9876");
  });
});
