import { KeyType, type Principal } from "@gw/proto/keys/v1/keys";
import { describe, expect, it } from "vitest";
import { assertUsable, isManagementKey, requireKeyType } from "./principal.js";
import { testPrincipal } from "./test-principal.js";

const principal = (overrides: Partial<Principal> = {}): Principal =>
  testPrincipal({ label: "lr_live_abc...abcd", ...overrides });

const MANAGEMENT = principal({ keyType: KeyType.KEY_TYPE_MANAGEMENT });
const REGULAR = principal();

describe("assertUsable", () => {
  it("passes an enabled key without an expiry", () => {
    expect(assertUsable(REGULAR, new Date(1_000))).toBe(REGULAR);
  });

  it("refuses a disabled key as the spec's 401 key_disabled", () => {
    expect(() => assertUsable(principal({ disabled: true }))).toThrow(
      expect.objectContaining({ status: 401, code: "key_disabled", message: "invalid api key" }),
    );
  });

  it("refuses a key from its expires_at on, not a millisecond earlier", () => {
    const key = principal({ expiresAt: new Date(5_000) });
    expect(assertUsable(key, new Date(4_999))).toBe(key);
    expect(() => assertUsable(key, new Date(5_000))).toThrow(
      expect.objectContaining({ status: 401, code: "key_expired" }),
    );
    expect(() => assertUsable(key, new Date(5_001))).toThrow(
      expect.objectContaining({ code: "key_expired" }),
    );
  });

  it("checks against the current time when none is given", () => {
    expect(() => assertUsable(principal({ expiresAt: new Date(Date.now() - 1_000) }))).toThrow(
      expect.objectContaining({ code: "key_expired" }),
    );
    const future = principal({ expiresAt: new Date(Date.now() + 3_600_000) });
    expect(assertUsable(future)).toBe(future);
  });
});

describe("requireKeyType", () => {
  it("tells management keys from API keys", () => {
    expect(isManagementKey(MANAGEMENT)).toBe(true);
    expect(isManagementKey(REGULAR)).toBe(false);
  });

  it("lets each kind through its own routes", () => {
    expect(requireKeyType(MANAGEMENT, "management")).toBe(MANAGEMENT);
    expect(requireKeyType(REGULAR, "regular")).toBe(REGULAR);
  });

  it("keeps API keys out of management routes with 403 management_key_required", () => {
    expect(() => requireKeyType(REGULAR, "management")).toThrow(
      expect.objectContaining({
        status: 403,
        code: "management_key_required",
        message: "this route requires a management key",
      }),
    );
  });

  it("keeps management keys out of inference routes with 403 api_key_required", () => {
    expect(() => requireKeyType(MANAGEMENT, "regular")).toThrow(
      expect.objectContaining({
        status: 403,
        code: "api_key_required",
        message: "management keys cannot call inference routes; use an API key",
      }),
    );
  });
});
