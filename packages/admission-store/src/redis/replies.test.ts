import { describe, expect, it } from "vitest";
import type { RateCheck } from "../admission-store.js";
import {
  parseAdmit,
  parseApply,
  parseLoad,
  parseLoadKey,
  parseRelease,
  parseReturnLease,
  parseSettle,
  parseView,
  UnexpectedReplyError,
} from "./replies.js";

// The Lua scripts' replies are parsed, not cast: a reply the code does not know (a script of another
// version) must fail loudly instead of admitting or refusing by accident.

const RATES: RateCheck[] = [
  { name: "free:minute", limit: 20, windowStartMs: 0, windowEndMs: 60_000 },
  { name: "free:day", limit: 50, windowStartMs: 0, windowEndMs: 86_400_000 },
];

const unexpected = (fn: () => unknown, script: string, reply: unknown): void => {
  expect(fn).toThrow(UnexpectedReplyError);
  expect(fn).toThrow(`unexpected reply from the ${script} script: ${JSON.stringify(reply)}`);
};

describe("parseAdmit", () => {
  it("reads each outcome the admit script sends", () => {
    expect(parseAdmit(["cold"])).toEqual({ status: "cold" });
    expect(parseAdmit(["cold_key"])).toEqual({ status: "cold_key" });
    expect(parseAdmit(["admitted", "1700000000000"])).toEqual({
      status: "admitted",
      expiresAt: 1_700_000_000_000,
    });
    expect(parseAdmit(["refused", "insufficient_credits"])).toEqual({
      status: "refused",
      reason: "insufficient_credits",
      limitSource: "account",
    });
    expect(parseAdmit(["refused", "quota_exceeded"])).toEqual({
      status: "refused",
      reason: "quota_exceeded",
      limitSource: "key",
    });
  });

  it("names the rate window that refused (1-based index into the request's rates)", () => {
    expect(parseAdmit(["rate_limited", "2", "1000"], RATES)).toEqual({
      status: "rate_limited",
      limitSource: "free:day",
      limit: 1_000,
      resetAtMs: 86_400_000,
    });
    expect(parseAdmit(["rate_limited", "1", "20"], RATES)).toMatchObject({ limitSource: "free:minute" });
  });

  it("refuses replies it does not know", () => {
    for (const reply of [
      "admitted",
      [1, 2],
      ["admitted"],
      ["refused", "other"],
      ["refused"],
      ["rate_limited", "3", "5"],
      ["rate_limited", "0", "5"],
      ["rate_limited", "1"],
      ["held"],
    ]) {
      unexpected(() => parseAdmit(reply, RATES), "admit", reply);
    }
    unexpected(() => parseAdmit(["rate_limited", "1", "20"]), "admit", ["rate_limited", "1", "20"]);
  });
});

describe("status replies", () => {
  it("accept exactly the statuses of their script", () => {
    for (const status of ["loaded", "ignored", "stale", "cold"]) expect(parseLoadKey(status)).toBe(status);
    for (const status of ["loaded", "ignored"]) expect(parseLoad(status)).toBe(status);
    for (const status of ["settled", "no_hold", "cold"]) expect(parseSettle(status)).toBe(status);
    for (const status of ["applied", "included", "cold"]) expect(parseApply(status)).toBe(status);
    for (const status of ["returned", "no_lease", "cold"]) expect(parseReturnLease(status)).toBe(status);
    unexpected(() => parseLoad("stale"), "load", "stale");
    unexpected(() => parseLoadKey("applied"), "loadKey", "applied");
    unexpected(() => parseSettle("loaded"), "settle", "loaded");
    unexpected(() => parseApply("settled"), "apply", "settled");
    unexpected(() => parseReturnLease(["returned"]), "returnLease", ["returned"]);
  });

  it("release: 1 released, 0 nothing to release, anything else refused", () => {
    expect(parseRelease(1)).toBe(true);
    expect(parseRelease(0)).toBe(false);
    unexpected(() => parseRelease("1"), "release", "1");
    unexpected(() => parseRelease(2), "release", 2);
  });
});

describe("parseView", () => {
  const reply = [
    "100",
    "7",
    "10",
    "5",
    "85",
    "1700000000000",
    "30",
    ["gen-1", "10"],
    ["p:lease-1", "5", "ref-2", "3"],
    ["u:kh@0", "12", "q:kh@0", "7", "u:kh2@86400000", "4"],
  ];

  it("reads the account's view: amounts, holds, pending debits and the keys' used spend only", () => {
    expect(parseView(reply)).toEqual({
      balancePico: 100n,
      seq: 7n,
      heldPico: 10n,
      pendingPico: 5n,
      availablePico: 85n,
      loadedAt: 1_700_000_000_000,
      purchasedPico: 30n,
      holds: { "gen-1": 10n },
      pendingDebits: { "p:lease-1": 5n, "ref-2": 3n },
      keyUsed: { "kh@0": 12n, "kh2@86400000": 4n },
    });
  });

  it("is undefined for an account with no view, and refuses a malformed one", () => {
    expect(parseView(null)).toBeUndefined();
    unexpected(() => parseView(reply.slice(0, 9)), "view", reply.slice(0, 9));
    unexpected(() => parseView("view"), "view", "view");
    const numeric = [100, ...reply.slice(1)];
    expect(() => parseView(numeric)).toThrow(UnexpectedReplyError);
    const badHolds = [...reply.slice(0, 7), "gen-1", ...reply.slice(8)];
    expect(() => parseView(badHolds)).toThrow(UnexpectedReplyError);
  });

  it("ignores a trailing field without a value", () => {
    const odd = [...reply.slice(0, 7), ["gen-1", "10", "gen-2"], [], []];
    expect(parseView(odd)?.holds).toEqual({ "gen-1": 10n });
  });
});
