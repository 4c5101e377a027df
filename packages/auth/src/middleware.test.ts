import {
  type AuthenticateResponse,
  AuthFailureReason,
  KeyType,
  type Principal,
} from "@gw/proto/keys/v1/keys";
import type { Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { hashSecret } from "./credentials.js";
import { authenticate, principalOf } from "./middleware.js";
import { PrincipalResolver } from "./resolver.js";
import { testPrincipal } from "./test-principal.js";

const API_KEY = `lr_live_${"ab".repeat(24)}`;
const MANAGEMENT_KEY = `lr_mgmt_${"cd".repeat(24)}`;

const principal = (keyHash: string, keyType: KeyType): Principal => testPrincipal({ keyHash, keyType });

/** A key service that knows one API key and one management key, by hash. */
const resolver = new PrincipalResolver(async ({ keyHash }): Promise<AuthenticateResponse> => {
  const keyType =
    keyHash === hashSecret(API_KEY)
      ? KeyType.KEY_TYPE_REGULAR
      : keyHash === hashSecret(MANAGEMENT_KEY)
        ? KeyType.KEY_TYPE_MANAGEMENT
        : undefined;
  return keyType === undefined
    ? {
        result: { $case: "failure", value: AuthFailureReason.AUTH_FAILURE_REASON_KEY_NOT_FOUND },
        cacheTtlMs: 0,
      }
    : { result: { $case: "principal", value: principal(keyHash, keyType) }, cacheTtlMs: 0 };
});

/** Runs the middleware on a request with these headers; resolves with what it passed to `next`. */
function run(
  kind: "management" | "regular" | "any",
  headers: Record<string, string>,
): Promise<{ request: Request; error: unknown }> {
  const request = { headers, query: {} } as unknown as Request;
  return new Promise((resolve) => {
    authenticate(resolver, kind)(request, {} as Response, (error?: unknown) => resolve({ request, error }));
  });
}

describe("authenticate middleware", () => {
  it("attaches the caller's principal and continues", async () => {
    const { request, error } = await run("regular", { authorization: `Bearer ${API_KEY}` });
    expect(error).toBeUndefined();
    expect(principalOf(request)).toMatchObject({ keyHash: hashSecret(API_KEY), accountId: "acct_1" });
  });

  it("passes a missing credential to the app's error handler as 401 missing_credentials", async () => {
    const { request, error } = await run("any", {});
    expect(error).toMatchObject({ status: 401, code: "missing_credentials" });
    expect(() => principalOf(request)).toThrow("without the authenticate middleware");
  });

  it("passes an unknown key on as 401 and attaches nothing", async () => {
    const { request, error } = await run("any", { "x-api-key": `lr_live_${"ef".repeat(24)}` });
    expect(error).toMatchObject({ status: 401, code: "key_not_found" });
    expect(() => principalOf(request)).toThrow();
  });

  it("refuses the wrong key type for the route with 403 and attaches nothing", async () => {
    const management = await run("regular", { authorization: `Bearer ${MANAGEMENT_KEY}` });
    expect(management.error).toMatchObject({ status: 403, code: "api_key_required" });
    expect(() => principalOf(management.request)).toThrow();
    const regular = await run("management", { authorization: `Bearer ${API_KEY}` });
    expect(regular.error).toMatchObject({ status: 403, code: "management_key_required" });
  });

  it("lets either key type through an `any` route", async () => {
    for (const key of [API_KEY, MANAGEMENT_KEY]) {
      const { request, error } = await run("any", { authorization: `Bearer ${key}` });
      expect(error).toBeUndefined();
      expect(principalOf(request).keyHash).toBe(hashSecret(key));
    }
  });

  it("passes a key-service outage on as 503", async () => {
    const down = new PrincipalResolver(async () => {
      throw new Error("connect ECONNREFUSED");
    });
    const request = { headers: { authorization: `Bearer ${API_KEY}` }, query: {} } as unknown as Request;
    const error = await new Promise((resolve) => authenticate(down, "any")(request, {} as Response, resolve));
    expect(error).toMatchObject({ status: 503 });
  });
});
