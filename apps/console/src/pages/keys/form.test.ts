import { describe, expect, it } from "vitest";
import {
  createBody,
  EMPTY_FORM,
  formFromKey,
  inputOfField,
  type Key,
  parseList,
  toLocalInput,
  updateBody,
  validate,
} from "./form";

const key: Key = {
  hash: "a".repeat(64),
  name: "ci",
  label: "sk-gw-v1-abc…xyz",
  key_type: "regular",
  disabled: false,
  limit: 5,
  limit_remaining: 4.5,
  limit_reset: "monthly",
  include_byok_in_limit: false,
  allowed_providers: ["openai"],
  allowed_models: null,
  usage: 0.5,
  usage_daily: 0.1,
  usage_weekly: 0.2,
  usage_monthly: 0.5,
  byok_usage: 0,
  byok_usage_daily: 0,
  byok_usage_weekly: 0,
  byok_usage_monthly: 0,
  created_at: "2026-11-01T00:00:00Z",
  updated_at: "2026-11-01T00:00:00Z",
  expires_at: null,
  workspace_id: "w",
  creator_user_id: null,
  external_user: null,
};

describe("parseList", () => {
  it("splits on commas and lines, trims, drops empties and repeats", () => {
    expect(parseList(" openai, anthropic\nopenai ,\n")).toEqual(["openai", "anthropic"]);
  });
  it("nothing is no restriction", () => expect(parseList(" , ")).toBeNull());
});

describe("validate", () => {
  const now = new Date("2026-11-23T12:00:00Z");
  it("requires a name", () => expect(validate(EMPTY_FORM, now).name).toBe("Enter a name."));
  it("refuses a negative or non-numeric limit", () => {
    expect(validate({ ...EMPTY_FORM, name: "k", limit: "-1" }, now).limit).toMatch(/0 or more/);
    expect(validate({ ...EMPTY_FORM, name: "k", limit: "ten" }, now).limit).toMatch(/0 or more/);
    expect(validate({ ...EMPTY_FORM, name: "k", limit: "1e13" }, now).limit).toMatch(/at most/);
  });
  it("refuses an expiry in the past", () => {
    expect(validate({ ...EMPTY_FORM, name: "k", expiresAt: "2020-01-01T00:00" }, now).expiresAt).toMatch(
      /future/,
    );
  });
  it("accepts a complete form", () => {
    expect(validate({ ...EMPTY_FORM, name: "k", limit: "2.5", expiresAt: "2030-01-01T00:00" }, now)).toEqual(
      {},
    );
  });
});

describe("createBody", () => {
  it("sends every field the API takes", () => {
    const body = createBody({
      ...EMPTY_FORM,
      name: " ci ",
      limit: "2.5",
      limitReset: "weekly",
      expiresAt: "2030-01-01T00:00",
      allowedProviders: "openai, anthropic",
      allowedModels: "openai/gpt-4o",
      includeByokInLimit: true,
    });
    expect(body).toEqual({
      name: "ci",
      limit: 2.5,
      limit_reset: "weekly",
      expires_at: new Date("2030-01-01T00:00").toISOString(),
      allowed_providers: ["openai", "anthropic"],
      allowed_models: ["openai/gpt-4o"],
      include_byok_in_limit: true,
    });
  });
  it("leaves the limit and restrictions unset when empty, and no expiry", () => {
    expect(createBody({ ...EMPTY_FORM, name: "k" })).toEqual({
      name: "k",
      limit: null,
      limit_reset: "never",
      allowed_providers: null,
      allowed_models: null,
      include_byok_in_limit: false,
    });
  });
});

describe("updateBody", () => {
  it("is empty when nothing changed", () => expect(updateBody(key, formFromKey(key))).toEqual({}));
  it("sends only what changed, clearing with null", () => {
    const form = {
      ...formFromKey(key),
      limit: "",
      limitReset: "never" as const,
      allowedModels: "m/x",
      disabled: true,
    };
    expect(updateBody(key, form)).toEqual({
      limit: null,
      limit_reset: null,
      allowed_models: ["m/x"],
      disabled: true,
    });
  });
  it("clears the provider restriction", () => {
    expect(updateBody(key, { ...formFromKey(key), allowedProviders: "" })).toEqual({
      allowed_providers: null,
    });
  });
});

describe("fields", () => {
  it("maps the API's field names (and indexed ones) to inputs", () => {
    expect(inputOfField("limit")).toBe("limit");
    expect(inputOfField("allowed_models[2]")).toBe("allowedModels");
    expect(inputOfField("expires_at")).toBe("expiresAt");
    expect(inputOfField("unknown")).toBeUndefined();
    expect(inputOfField(undefined)).toBeUndefined();
  });
  it("shows an expiry in the local zone", () => {
    expect(toLocalInput("2026-12-01T10:00:00Z", -120)).toBe("2026-12-01T12:00");
    expect(toLocalInput("2026-12-01T10:00:00Z", 300)).toBe("2026-12-01T05:00");
  });
});
