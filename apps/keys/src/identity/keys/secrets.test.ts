import { hashSecret } from "@gw/auth";
import { describe, expect, it } from "vitest";
import { generateSecret, maskSecret } from "./secrets.js";

describe("key secrets", () => {
  it("generates lr_live_/lr_mgmt_ + 48 lowercase hex and returns only its sha256 as the hash", () => {
    const regular = generateSecret("regular");
    const management = generateSecret("management");
    expect(regular.secret).toMatch(/^lr_live_[0-9a-f]{48}$/);
    expect(management.secret).toMatch(/^lr_mgmt_[0-9a-f]{48}$/);
    expect(regular.hash).toBe(hashSecret(regular.secret));
    expect(regular.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("never repeats a secret", () => {
    const secrets = new Set(Array.from({ length: 200 }, () => generateSecret("regular").secret));
    expect(secrets.size).toBe(200);
  });

  it("masks as prefix + first 3 + ... + last 4", () => {
    const secret = `lr_live_abc${"0".repeat(41)}wxyz`;
    expect(maskSecret(secret)).toBe("lr_live_abc...wxyz");
    expect(maskSecret(`lr_mgmt_123${"f".repeat(41)}9876`)).toBe("lr_mgmt_123...9876");
    expect(generateSecret("regular").label).toMatch(/^lr_live_[0-9a-f]{3}\.\.\.[0-9a-f]{4}$/);
  });
});
