import { describe, expect, it } from "vitest";
import {
  ERROR_CODES,
  ERROR_KINDS,
  type ErrorCode,
  type ErrorKind,
  GatewayError,
  isClientErrorKind,
  kindsOfCode,
} from "./index.js";

const codes = Object.keys(ERROR_CODES) as ErrorCode[];

describe("error-code catalogue", () => {
  it("gives every code one or more kinds that exist, each fixing the status the error is sent with", () => {
    for (const code of codes) {
      const kinds = kindsOfCode(code);
      expect(kinds.length, code).toBeGreaterThan(0);
      expect(new Set(kinds).size, code).toBe(kinds.length);
      for (const kind of kinds) {
        expect(Object.keys(ERROR_KINDS), code).toContain(kind);
        expect(new GatewayError(kind, "m", { code: code as never }).status).toBe(ERROR_KINDS[kind].status);
      }
    }
  });

  it("names codes in snake_case and says what each one means, no two alike", () => {
    for (const code of codes) expect(code).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
    const meanings = codes.map((code) => ERROR_CODES[code].meaning.trim());
    for (const meaning of meanings) expect(meaning.length).toBeGreaterThan(10);
    expect(new Set(meanings).size).toBe(codes.length);
  });

  it("keeps the decisions page's codes with their statuses", () => {
    const status = (code: ErrorCode) => kindsOfCode(code).map((kind) => ERROR_KINDS[kind].status);
    expect(status("insufficient_credits")).toEqual([402]);
    expect(status("quota_exceeded")).toEqual([402]);
    expect(status("key_disabled")).toEqual([401]);
    expect(status("model_not_found")).toEqual([404]);
    expect(status("no_available_provider")).toEqual([503]);
  });

  it("lets a provider's refusal of the request keep any 4xx status, and only a 4xx", () => {
    const clientKinds = (Object.keys(ERROR_KINDS) as ErrorKind[]).filter(isClientErrorKind);
    expect([...kindsOfCode("upstream_rejected_request")].sort()).toEqual(clientKinds.sort());
  });

  it("passes a provider's own code through as data, behind a code of ours when both are given", () => {
    const passed = new GatewayError("invalid_request", "bad", { upstreamCode: "invalid_value" });
    expect(passed.code).toBe("invalid_value");
    const ours = new GatewayError("invalid_request", "bad", {
      code: "upstream_rejected_request",
      upstreamCode: "invalid_value",
    });
    expect(ours.code).toBe("upstream_rejected_request");
  });

  it("rejects at compile time a code of another kind, an unknown code, and a code on an unknown kind", () => {
    // Each line below fails `tsc` unless the catalogue's typing stops it; the run only constructs them.
    // @ts-expect-error rate_limited is a rate_limit code, not a not_found one
    const wrongKind = new GatewayError("not_found", "m", { code: "rate_limited" });
    // @ts-expect-error not in the catalogue
    const unknown = new GatewayError("invalid_request", "m", { code: "no_such_code" });
    const kind = "not_found" as ErrorKind;
    // @ts-expect-error the kind could be any kind, so no code's status is known
    const anyKind = new GatewayError(kind, "m", { code: "model_not_found" });
    expect([wrongKind.code, unknown.code, anyKind.code]).toEqual([
      "rate_limited",
      "no_such_code",
      "model_not_found",
    ]);
  });
});
