import { GatewayError } from "@gw/errors";
import { parseOrThrow } from "@gw/http";
import { describe, expect, it } from "vitest";
import { createKeyBody, listKeysQuery, toPatch, toSettings, updateKeyBody } from "./schemas.js";

function rejection(run: () => unknown): GatewayError {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error("expected a rejection");
}

describe("key request bodies", () => {
  it("parses a full create body into exact settings", () => {
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const settings = toSettings(
      parseOrThrow(createKeyBody, {
        name: " ci ",
        limit: 12.5,
        limit_reset: "weekly",
        expires_at: expires,
        allowed_models: ["a/b", "a/b"],
      }),
    );
    expect(settings).toEqual({
      name: "ci",
      limitPico: 12_500_000_000_000n,
      limitReset: "weekly",
      expiresAt: new Date(expires),
      allowedProviders: null,
      allowedModels: ["a/b"],
      includeByokInLimit: false,
    });
  });

  it("requires a name", () => {
    const error = rejection(() => parseOrThrow(createKeyBody, { limit: 1 }));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/^name:/);
  });

  it("accepts expires_at only in UTC and in the future", () => {
    const past = rejection(() =>
      parseOrThrow(createKeyBody, { name: "k", expires_at: "2001-01-01T00:00:00Z" }),
    );
    expect(past.message).toMatch(/^expires_at: must be in the future/);
    const offset = rejection(() =>
      parseOrThrow(createKeyBody, { name: "k", expires_at: "2999-01-01T00:00:00+02:00" }),
    );
    expect(offset.message).toMatch(/^expires_at: must be in UTC/);
    const garbage = rejection(() => parseOrThrow(createKeyBody, { name: "k", expires_at: "tomorrow" }));
    expect(garbage.message).toMatch(/^expires_at:/);
    expect(
      parseOrThrow(createKeyBody, { name: "k", expires_at: "2999-01-01T00:00:00+00:00" }).expires_at,
    ).toEqual(new Date("2999-01-01T00:00:00Z"));
  });

  it("rejects a negative limit and an unknown limit_reset", () => {
    expect(rejection(() => parseOrThrow(createKeyBody, { name: "k", limit: -1 })).message).toMatch(/^limit:/);
    expect(
      rejection(() => parseOrThrow(createKeyBody, { name: "k", limit_reset: "yearly" })).message,
    ).toMatch(/^limit_reset:/);
  });

  it('takes limit_reset "never" as a lifetime cap, stored as null on create and on update', () => {
    expect(
      toSettings(parseOrThrow(createKeyBody, { name: "k", limit_reset: "never" })).limitReset,
    ).toBeNull();
    expect(toPatch(parseOrThrow(updateKeyBody, { limit_reset: "never" }))).toEqual({ limitReset: null });
    expect(toPatch(parseOrThrow(updateKeyBody, { limit_reset: "monthly" }))).toEqual({
      limitReset: "monthly",
    });
  });

  it("turns only the fields present in a PATCH into changes, explicit nulls included", () => {
    expect(toPatch(parseOrThrow(updateKeyBody, {}))).toEqual({});
    expect(toPatch(parseOrThrow(updateKeyBody, { limit: null, disabled: true }))).toEqual({
      limitPico: null,
      disabled: true,
    });
    expect(toPatch(parseOrThrow(updateKeyBody, { limit_reset: null, allowed_models: null }))).toEqual({
      limitReset: null,
      allowedModels: null,
    });
  });

  it("takes expires_at in a PATCH with create's checks; null removes the expiry", () => {
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    expect(toPatch(parseOrThrow(updateKeyBody, { expires_at: expires }))).toEqual({
      expiresAt: new Date(expires),
    });
    expect(toPatch(parseOrThrow(updateKeyBody, { expires_at: null }))).toEqual({ expiresAt: null });
    expect(toPatch(parseOrThrow(updateKeyBody, { name: "k" }))).toEqual({ name: "k" });
    for (const value of ["2001-01-01T00:00:00Z", "2999-01-01T00:00:00+02:00", "tomorrow"]) {
      const patchError = rejection(() => parseOrThrow(updateKeyBody, { expires_at: value }));
      const createError = rejection(() => parseOrThrow(createKeyBody, { name: "k", expires_at: value }));
      expect(patchError.message).toMatch(/^expires_at: /);
      expect(patchError.message).toBe(createError.message);
    }
  });

  it("bounds page_size to 1..500 with a default of 100", () => {
    expect(parseOrThrow(listKeysQuery, {}).page_size).toBe(100);
    expect(parseOrThrow(listKeysQuery, { page_size: "500" }).page_size).toBe(500);
    expect(rejection(() => parseOrThrow(listKeysQuery, { page_size: "501" })).message).toMatch(/^page_size:/);
    expect(rejection(() => parseOrThrow(listKeysQuery, { page_size: "0" })).message).toMatch(/^page_size:/);
    expect(parseOrThrow(listKeysQuery, { include_disabled: "true" }).include_disabled).toBe(true);
    expect(parseOrThrow(listKeysQuery, {}).include_disabled).toBe(false);
  });
});
