import { describe, expect, it } from "vitest";
import type { AdmitRequest, RateCheck } from "./admission-store.js";
import {
  AdmissionInputError,
  checkAccountId,
  checkAdmitRequest,
  checkAmount,
  checkEntry,
  checkKeySnapshot,
  checkName,
  checkRef,
  checkSnapshot,
  checkTime,
  MAX_AMOUNT_PICO,
} from "./validate.js";

// Every input reaches Redis as part of a key name or as int64 arithmetic inside a Lua script: these
// are the bounds that keep a bad input from becoming a wrong key or a half-applied update.

const MAX_INT64 = 2n ** 63n - 1n;
const at = (length: number): string => "a".repeat(length);

function admit(overrides: Partial<AdmitRequest> = {}): AdmitRequest {
  return { accountId: "acct_1", holdId: "gen-1", amountPico: 5n, ttlMs: 60_000, now: 1_000, ...overrides };
}

function rate(overrides: Partial<RateCheck> = {}): RateCheck {
  return { name: "free:minute", limit: 20, windowStartMs: 0, windowEndMs: 60_000, ...overrides };
}

const refused = (fn: () => unknown, message: string | RegExp): void => {
  expect(fn).toThrow(AdmissionInputError);
  expect(fn).toThrow(message);
};

describe("names that become parts of Redis keys", () => {
  it("account ids: 1..200 characters without braces or whitespace", () => {
    expect(checkAccountId("a")).toBe("a");
    expect(checkAccountId(at(200))).toBe(at(200));
    refused(() => checkAccountId(""), 'invalid account id: ""');
    refused(() => checkAccountId(at(201)), "invalid account id");
    for (const bad of ["a{b", "a}b", "a b", "a\tb"]) refused(() => checkAccountId(bad), JSON.stringify(bad));
  });

  it("refs: 1..200 characters, named in the error", () => {
    expect(checkRef("hold id", at(200))).toBe(at(200));
    refused(() => checkRef("hold id", ""), "invalid hold id");
    refused(() => checkRef("lease ref", at(201)), "invalid lease ref");
  });

  it("key hashes and rate names: 1..200 characters without braces, @ or whitespace", () => {
    expect(checkName("key hash", at(200))).toBe(at(200));
    refused(() => checkName("key hash", ""), "invalid key hash");
    refused(() => checkName("key hash", at(201)), "invalid key hash");
    for (const bad of ["k@1", "{k}", "k 1"]) refused(() => checkName("rate name", bad), "invalid rate name");
  });
});

describe("amounts and times", () => {
  it("amounts run from 0 (or -cap when negatives are allowed) to the cap, inclusive", () => {
    expect(checkAmount("amount", 0n)).toBe(0n);
    expect(checkAmount("amount", MAX_AMOUNT_PICO)).toBe(MAX_AMOUNT_PICO);
    expect(checkAmount("amount", -MAX_AMOUNT_PICO, true)).toBe(-MAX_AMOUNT_PICO);
    refused(() => checkAmount("amount", -1n), "amount out of range: -1");
    refused(
      () => checkAmount("amount", MAX_AMOUNT_PICO + 1n),
      `amount out of range: ${MAX_AMOUNT_PICO + 1n}`,
    );
    refused(() => checkAmount("amount", -MAX_AMOUNT_PICO - 1n, true), "out of range");
  });

  it("times are non-negative safe integers", () => {
    expect(checkTime(0)).toBe(0);
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 53]) refused(() => checkTime(bad), `invalid time: ${bad}`);
  });
});

describe("checkAdmitRequest", () => {
  it("passes a valid request with a key limit and rates through", () => {
    const request = admit({
      keyLimit: { keyHash: "k", limitPico: 10n, windowStartMs: 0 },
      rates: [rate({ upgrade: { minPurchasedPico: 5n, limit: 1_000 } })],
    });
    expect(checkAdmitRequest(request)).toBe(request);
  });

  it("refuses each invalid part", () => {
    refused(() => checkAdmitRequest(admit({ accountId: "a b" })), "invalid account id");
    refused(() => checkAdmitRequest(admit({ holdId: "" })), "invalid hold id");
    refused(() => checkAdmitRequest(admit({ amountPico: -1n })), "amount out of range");
    for (const ttlMs of [0, -5, 1.5]) refused(() => checkAdmitRequest(admit({ ttlMs })), "invalid hold ttl");
    refused(() => checkAdmitRequest(admit({ now: -1 })), "invalid time");
    const limit = { keyHash: "k", limitPico: 10n, windowStartMs: 0 };
    refused(() => checkAdmitRequest(admit({ keyLimit: { ...limit, keyHash: "k@" } })), "invalid key hash");
    refused(
      () => checkAdmitRequest(admit({ keyLimit: { ...limit, limitPico: -1n } })),
      "key limit out of range",
    );
    refused(() => checkAdmitRequest(admit({ keyLimit: { ...limit, windowStartMs: -1 } })), "invalid time");
  });

  it("refuses invalid rate checks", () => {
    const bad = (check: RateCheck, message: string) =>
      refused(() => checkAdmitRequest(admit({ rates: [rate(), check] })), message);
    bad(rate({ name: "a b" }), "invalid rate name");
    bad(rate({ limit: -1 }), "invalid rate limit for free:minute");
    bad(rate({ limit: 1.5 }), "invalid rate limit");
    bad(rate({ upgrade: { minPurchasedPico: 0n, limit: -1 } }), "invalid rate limit");
    bad(rate({ upgrade: { minPurchasedPico: -1n, limit: 5 } }), "upgrade threshold out of range");
    bad(rate({ windowStartMs: -1 }), "invalid time");
    bad(rate({ windowEndMs: 0 }), "empty rate window for free:minute");
    bad(rate({ windowStartMs: 60_000, windowEndMs: 60_000 }), "empty rate window");
    expect(checkAdmitRequest(admit({ rates: [rate({ limit: 0 })] }))).toBeDefined();
  });

  it("a rate check's take, when given, is a whole number of at least 1", () => {
    const bad = (take: number) =>
      refused(
        () => checkAdmitRequest(admit({ rates: [rate({ take })] })),
        `invalid rate take for free:minute: ${take}`,
      );
    for (const take of [0, -1, 1.5, Number.NaN, 2 ** 53]) bad(take);
    expect(checkAdmitRequest(admit({ rates: [rate({ take: 1 })] })).rates?.[0]?.take).toBe(1);
    expect(checkAdmitRequest(admit({ rates: [rate({ take: 500 })] })).rates?.[0]?.take).toBe(500);
  });
});

describe("snapshots and ledger entries", () => {
  it("key snapshots: a valid name and time, any signed spend within the cap, seq within int64", () => {
    const snapshot = { keyHash: "k", windowStartMs: 0, spentPico: -5n, seq: MAX_INT64 };
    expect(checkKeySnapshot(snapshot)).toBe(snapshot);
    refused(() => checkKeySnapshot({ ...snapshot, seq: -1n }), "invalid snapshot seq");
    refused(() => checkKeySnapshot({ ...snapshot, seq: MAX_INT64 + 1n }), "invalid snapshot seq");
    refused(() => checkKeySnapshot({ ...snapshot, keyHash: "" }), "invalid key hash");
    refused(() => checkKeySnapshot({ ...snapshot, windowStartMs: -1 }), "invalid time");
    refused(
      () => checkKeySnapshot({ ...snapshot, spentPico: MAX_AMOUNT_PICO + 1n }),
      "key spend out of range",
    );
  });

  it("ledger snapshots: seq, balance and purchased total within int64, valid rate floors", () => {
    const floor = { name: "free:day", windowStartMs: 0, windowEndMs: 10, count: 0 };
    const snapshot = { balancePico: -MAX_INT64, seq: 0n, purchasedPico: MAX_INT64, rateFloors: [floor] };
    expect(checkSnapshot(snapshot)).toBe(snapshot);
    expect(checkSnapshot({ balancePico: MAX_INT64, seq: MAX_INT64 })).toBeDefined();
    refused(() => checkSnapshot({ ...snapshot, seq: -1n }), "invalid snapshot seq");
    refused(() => checkSnapshot({ ...snapshot, seq: MAX_INT64 + 1n }), "invalid snapshot seq");
    refused(() => checkSnapshot({ ...snapshot, balancePico: -MAX_INT64 - 1n }), "does not fit int64");
    refused(() => checkSnapshot({ ...snapshot, balancePico: MAX_INT64 + 1n }), "does not fit int64");
    refused(() => checkSnapshot({ ...snapshot, purchasedPico: -1n }), "invalid purchased total");
    refused(() => checkSnapshot({ ...snapshot, purchasedPico: MAX_INT64 + 1n }), "invalid purchased total");
    const badFloor = (patch: Partial<typeof floor>, message: string) =>
      refused(() => checkSnapshot({ ...snapshot, rateFloors: [floor, { ...floor, ...patch }] }), message);
    badFloor({ name: "a b" }, "invalid rate name");
    badFloor({ windowStartMs: -1 }, "invalid time");
    badFloor({ windowEndMs: 0 }, "invalid rate floor for free:day");
    badFloor({ count: -1 }, "invalid rate floor");
    badFloor({ count: 0.5 }, "invalid rate floor");
  });

  it("entries: id 1..int64, signed amount, and each optional field checked when present", () => {
    const entry = { entryId: 1n, amountPico: -MAX_AMOUNT_PICO };
    expect(checkEntry(entry)).toBe(entry);
    expect(checkEntry({ entryId: MAX_INT64, amountPico: 0n, byokPico: 0n })).toBeDefined();
    refused(() => checkEntry({ ...entry, entryId: 0n }), "invalid entry id");
    refused(() => checkEntry({ ...entry, entryId: MAX_INT64 + 1n }), "invalid entry id");
    refused(() => checkEntry({ ...entry, amountPico: MAX_AMOUNT_PICO + 1n }), "entry amount out of range");
    refused(() => checkEntry({ ...entry, pendingRef: "" }), "invalid pending ref");
    refused(() => checkEntry({ ...entry, keyHash: "k@" }), "invalid key hash");
    refused(() => checkEntry({ ...entry, createdAtMs: -1 }), "invalid time");
    refused(() => checkEntry({ ...entry, byokPico: -1n }), "byok cost out of range");
    refused(() => checkEntry({ ...entry, leaseRef: "" }), "invalid lease ref");
  });
});
