import { describe, expect, it } from "vitest";
import {
  createBody,
  EMPTY_FORM,
  expiryChange,
  formFromKey,
  fromLocalInput,
  inputOfField,
  type Key,
  parseList,
  toLocalInput,
  updateBody,
  validate,
  validateEdit,
  type ZoneOffset,
} from "./form";

// Zones as Date#getTimezoneOffset reports them (minutes from local time to UTC), fixed so the tests do not
// depend on the machine's zone. BERLIN keeps Central European summer time 2026-2027: UTC+2 from the last
// Sunday of March 01:00Z to the last Sunday of October 01:00Z, UTC+1 otherwise.
const UTC: ZoneOffset = () => 0;
const PLUS_2: ZoneOffset = () => -120;
const MINUS_5: ZoneOffset = () => 300;
const SUMMER = [
  [Date.UTC(2026, 2, 29, 1), Date.UTC(2026, 9, 25, 1)],
  [Date.UTC(2027, 2, 28, 1), Date.UTC(2027, 9, 31, 1)],
];
const BERLIN: ZoneOffset = (instant) =>
  SUMMER.some(([start = 0, end = 0]) => instant.getTime() >= start && instant.getTime() < end) ? -120 : -60;

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
  const dated = (expiresAt: string) => ({ ...EMPTY_FORM, name: "k", neverExpires: false, expiresAt });
  it("refuses an expiry in the past", () => {
    expect(validate(dated("2020-01-01T00:00"), now).expiresAt).toMatch(/future/);
  });
  it("judges past and future in the browser's zone", () => {
    // 13:30 in UTC+2 is 11:30Z, before noon UTC: in the past. In UTC-5 it is 18:30Z: in the future.
    expect(validate(dated("2026-11-23T13:30"), now, PLUS_2).expiresAt).toMatch(/future/);
    expect(validate(dated("2026-11-23T13:30"), now, MINUS_5).expiresAt).toBeUndefined();
  });
  it("asks for a date when Never expires is not chosen, and refuses one that does not exist", () => {
    expect(validate(dated(""), now).expiresAt).toBe("Enter a date and time, or choose Never expires.");
    expect(validate(dated("2027-02-30T10:00"), now).expiresAt).toBe("Enter a date and time.");
    expect(validate({ ...EMPTY_FORM, name: "k", expiresAt: "" }, now)).toEqual({});
  });
  it("accepts a complete form", () => {
    expect(validate({ ...dated("2030-01-01T00:00"), limit: "2.5" }, now)).toEqual({});
  });
});

describe("createBody", () => {
  it("sends every field the API takes", () => {
    const body = createBody(
      {
        ...EMPTY_FORM,
        name: " ci ",
        limit: "2.5",
        limitReset: "weekly",
        expiresAt: "2030-01-01T00:00",
        neverExpires: false,
        allowedProviders: "openai, anthropic",
        allowedModels: "openai/gpt-4o",
        includeByokInLimit: true,
      },
      PLUS_2,
    );
    expect(body).toEqual({
      name: "ci",
      limit: 2.5,
      limit_reset: "weekly",
      // Midnight in UTC+2 is 22:00Z the day before.
      expires_at: "2029-12-31T22:00:00.000Z",
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
    expect(toLocalInput("2026-12-01T10:00:00Z", PLUS_2)).toBe("2026-12-01T12:00");
    expect(toLocalInput("2026-12-01T10:00:00Z", MINUS_5)).toBe("2026-12-01T05:00");
  });
});

describe("expiry conversion (datetime-local ⇄ UTC)", () => {
  it("turns the wall time of the browser's zone into the UTC instant the API takes", () => {
    expect(fromLocalInput("2026-12-01T12:00", PLUS_2)).toBe("2026-12-01T10:00:00.000Z");
    expect(fromLocalInput("2026-12-01T05:00", MINUS_5)).toBe("2026-12-01T10:00:00.000Z");
    expect(fromLocalInput("2026-12-31T23:30", MINUS_5)).toBe("2027-01-01T04:30:00.000Z");
    expect(fromLocalInput("2026-12-01T10:00:30", UTC)).toBe("2026-12-01T10:00:30.000Z");
  });
  it("uses the offset of the date meant, not today's, across daylight saving time", () => {
    // In Berlin, 12:00 is 11:00Z in winter and 10:00Z in summer, whichever season it is now.
    expect(fromLocalInput("2027-01-15T12:00", BERLIN)).toBe("2027-01-15T11:00:00.000Z");
    expect(fromLocalInput("2027-07-15T12:00", BERLIN)).toBe("2027-07-15T10:00:00.000Z");
    expect(toLocalInput("2027-07-15T10:00:00Z", BERLIN)).toBe("2027-07-15T12:00");
    // Either side of the change on 2026-10-25 (03:00 CEST becomes 02:00 CET at 01:00Z).
    expect(fromLocalInput("2026-10-25T00:30", BERLIN)).toBe("2026-10-24T22:30:00.000Z");
    expect(fromLocalInput("2026-10-25T04:00", BERLIN)).toBe("2026-10-25T03:00:00.000Z");
  });
  it("round-trips every hour of a year in Berlin", () => {
    for (let hour = 0; hour < 24 * 365; hour++) {
      const iso = new Date(Date.UTC(2027, 0, 1) + hour * 3_600_000).toISOString();
      const local = toLocalInput(iso, BERLIN);
      // The hour repeated when clocks go back is ambiguous; every other wall time maps back exactly.
      if (local.startsWith("2027-10-31T02")) continue;
      expect(fromLocalInput(local, BERLIN)).toBe(iso);
    }
  });
  it("refuses what is not a real date and time", () => {
    for (const value of [
      "",
      "2027-02-29T10:00",
      "2026-04-31T10:00",
      "2026-12-01T24:00",
      "2026-12-01",
      "soon",
    ])
      expect(fromLocalInput(value, UTC)).toBeNull();
  });
});

describe("editing the expiry", () => {
  const now = new Date("2026-11-23T12:00:00Z");
  const expiring: Key = { ...key, expires_at: "2027-07-15T10:00:30.500Z" };

  it("shows a key's expiry in the browser's zone, or Never expires", () => {
    expect(formFromKey(expiring, BERLIN)).toMatchObject({
      expiresAt: "2027-07-15T12:00",
      neverExpires: false,
    });
    expect(formFromKey(key, BERLIN)).toMatchObject({ expiresAt: "", neverExpires: true });
  });
  it("sends nothing for an expiry left as it was, keeping its seconds", () => {
    expect(updateBody(expiring, formFromKey(expiring, BERLIN), BERLIN)).toEqual({});
    expect(updateBody(key, formFromKey(key, BERLIN), BERLIN)).toEqual({});
  });
  it("sends a new expiry in UTC", () => {
    const form = { ...formFromKey(expiring, BERLIN), expiresAt: "2027-01-15T09:30" };
    expect(updateBody(expiring, form, BERLIN)).toEqual({ expires_at: "2027-01-15T08:30:00.000Z" });
    const first = { ...formFromKey(key, BERLIN), neverExpires: false, expiresAt: "2027-07-15T12:00" };
    expect(updateBody(key, first, BERLIN)).toEqual({ expires_at: "2027-07-15T10:00:00.000Z" });
  });
  it("removes the expiry with Never expires (null), and sends nothing for a key that had none", () => {
    const never = { ...formFromKey(expiring, BERLIN), neverExpires: true, expiresAt: "" };
    expect(updateBody(expiring, never, BERLIN)).toEqual({ expires_at: null });
    expect(expiryChange(key, { ...formFromKey(key), neverExpires: true }, BERLIN)).toBeUndefined();
  });
  it("lets an expired key be edited without touching its expiry, but not moved into the past", () => {
    const expired: Key = { ...key, expires_at: "2026-11-01T00:00:00Z" };
    const renamed = { ...formFromKey(expired, BERLIN), name: "renamed" };
    expect(validateEdit(expired, renamed, now, BERLIN)).toEqual({});
    expect(updateBody(expired, renamed, BERLIN)).toEqual({ name: "renamed" });
    const stillPast = { ...renamed, expiresAt: "2026-11-20T10:00" };
    expect(validateEdit(expired, stillPast, now, BERLIN).expiresAt).toMatch(/future/);
    const revived = { ...renamed, neverExpires: true, expiresAt: "" };
    expect(validateEdit(expired, revived, now, BERLIN)).toEqual({});
    expect(updateBody(expired, revived, BERLIN)).toEqual({ name: "renamed", expires_at: null });
  });
});
