import { AdmissionInputError, type AdmissionStore, MemoryAdmissionStore } from "@gw/admission-store";
import { GatewayError } from "@gw/errors";
import { silentLogger } from "@gw/logger";
import { type AcquireLeaseRequest, type KeyLimit, LimitReset } from "@gw/proto/billing/v1/billing";
import { describe, expect, it } from "vitest";
import type { Admission } from "./admission.js";
import { LEASE_EXPIRY_MARGIN_MS, type LeaseSettings, Leases } from "./leases.js";
import { keyWindowStart } from "./limits.js";

// Wednesday 2026-03-11 12:00 UTC: the day's window ends in 12 hours.
const NOW = Date.UTC(2026, 2, 11, 12, 0, 0);
const KEY = "k".repeat(64);
const SETTINGS: LeaseSettings = {
  ttlMs: 5 * 60_000,
  useMs: 30_000,
  failOpen: false,
  paidRequestsPerMinute: 0,
};

/** Leases over the in-memory store; "reload" loads the given balance and key spend, as Postgres would. */
function setup(
  options: {
    balance?: bigint;
    keySpent?: bigint;
    settings?: Partial<LeaseSettings>;
    store?: AdmissionStore;
    now?: number;
  } = {},
) {
  const now = options.now ?? NOW;
  const store = options.store ?? new MemoryAdmissionStore();
  const reloads: string[] = [];
  const admission = {
    reload: async (accountId: string) => {
      reloads.push("account");
      await store.load(accountId, { balancePico: options.balance ?? 1_000_000n, seq: 1n }, now);
    },
    reloadKey: async (
      accountId: string,
      key: { keyHash: string; windowStartMs: number; includeByok?: boolean },
    ) => {
      reloads.push("key");
      await store.loadKey(accountId, { ...key, spentPico: options.keySpent ?? 0n, seq: 1n });
    },
  } as unknown as Admission;
  const leases = new Leases({
    store,
    admission,
    logger: silentLogger(),
    settings: { ...SETTINGS, ...options.settings },
    clock: () => now,
  });
  return { leases, store, reloads };
}

const daily = (limitPico: bigint): KeyLimit => ({
  limitPico,
  reset: LimitReset.LIMIT_RESET_DAILY,
  includeByok: false,
});

function request(overrides: Partial<AcquireLeaseRequest> = {}): AcquireLeaseRequest {
  return {
    leaseId: "lease-1",
    accountId: "acct-1",
    keyHash: KEY,
    keyLimit: undefined,
    requestedPico: 10_000n,
    minPico: 100n,
    requestedRequests: 0,
    ...overrides,
  };
}

async function refusal(run: () => Promise<unknown>): Promise<GatewayError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }
  throw new Error("no refusal");
}

describe("Leases.acquire", () => {
  it("loads a cold view, then grants min(requested, available / 8) as a hold under the lease id", async () => {
    const { leases, store, reloads } = setup({ balance: 40_000n });
    const granted = await leases.acquire(request({ requestedPico: 10_000n }));
    expect(reloads).toEqual(["account"]);
    expect(granted).toMatchObject({ granted: true, grantedPico: 5_000n });
    expect((await store.view("acct-1", NOW))?.holds["lease-1"]).toBe(5_000n);
    const small = await setup({ balance: 1_000_000n }).leases.acquire(request({ requestedPico: 300n }));
    expect(small.grantedPico).toBe(300n);
  });

  it("also takes at most 1/8 of what the key has left in its window", async () => {
    const { leases, reloads } = setup({ balance: 1_000_000n, keySpent: 2_000n });
    const granted = await leases.acquire(request({ keyLimit: daily(10_000n), requestedPico: 100_000n }));
    expect(reloads).toEqual(["account", "key"]);
    expect(granted.grantedPico).toBe(1_000n);
  });

  it("grants nothing below minPico, and nothing when nothing is left", async () => {
    expect((await setup({ balance: 700n }).leases.acquire(request({ minPico: 100n }))).granted).toBe(false);
    expect((await setup({ balance: 800n }).leases.acquire(request({ minPico: 100n }))).granted).toBe(true);
    const empty = await setup({ balance: 0n }).leases.acquire(request({ minPico: 0n }));
    expect(empty).toEqual({
      granted: false,
      grantedPico: 0n,
      useUntilUnixMs: 0n,
      expiresUnixMs: 0n,
      grantedRequests: 0,
    });
  });

  it("answers a retried acquire with the hold as it stands (idempotent on the lease id)", async () => {
    const { leases } = setup({ balance: 80_000n });
    const first = await leases.acquire(request({ requestedPico: 5_000n }));
    const again = await leases.acquire(request({ requestedPico: 9_000n }));
    expect(again.grantedPico).toBe(first.grantedPico);
  });

  it("bounds the use window by the setting, the hold's expiry less a margin, and the key's window end", async () => {
    const plain = await setup().leases.acquire(request());
    expect(plain.useUntilUnixMs).toBe(BigInt(NOW + SETTINGS.useMs));
    expect(plain.expiresUnixMs).toBe(BigInt(NOW + SETTINGS.ttlMs));
    const shortTtl = await setup({
      settings: { ttlMs: LEASE_EXPIRY_MARGIN_MS + 10_000, useMs: 120_000 },
    }).leases.acquire(request());
    expect(shortTtl.useUntilUnixMs).toBe(BigInt(NOW + 10_000));
    const lateDay = Date.UTC(2026, 2, 11, 23, 59, 50);
    const store = new MemoryAdmissionStore();
    await store.load("acct-1", { balancePico: 1_000_000n, seq: 1n }, lateDay);
    await store.loadKey("acct-1", {
      keyHash: KEY,
      windowStartMs: keyWindowStart(LimitReset.LIMIT_RESET_DAILY, lateDay),
      spentPico: 0n,
      seq: 1n,
    });
    const nearMidnight = new Leases({
      store,
      admission: {} as Admission,
      logger: silentLogger(),
      settings: SETTINGS,
      clock: () => lateDay,
    });
    const granted = await nearMidnight.acquire(request({ keyLimit: daily(100_000n) }));
    expect(granted.useUntilUnixMs).toBe(BigInt(Date.UTC(2026, 2, 12)));
  });

  it("refuses a malformed request naming the field, before touching the store", async () => {
    const { leases, reloads } = setup();
    const cases: Array<[Partial<AcquireLeaseRequest>, string]> = [
      [{ accountId: "" }, "account_id is required"],
      [{ leaseId: "" }, "lease_id is required"],
      [{ keyHash: "", keyLimit: daily(1n) }, "key_hash is required with key_limit"],
      [{ requestedPico: -1n }, "requested_pico must not be negative"],
      [{ minPico: -1n }, "min_pico must not be negative"],
    ];
    for (const [overrides, message] of cases) {
      const error = await refusal(() => leases.acquire(request(overrides)));
      expect(error.kind).toBe("invalid_request");
      expect(error.message).toBe(message);
    }
    expect(reloads).toEqual([]);
    expect((await leases.acquire(request({ requestedPico: 0n, minPico: 0n }))).granted).toBe(false);
  });

  it("maps the store's input errors to 400 and passes gateway errors through", async () => {
    const broken = (error: Error): AdmissionStore =>
      ({ view: async () => Promise.reject(error) }) as unknown as AdmissionStore;
    const input = await refusal(() =>
      setup({ store: broken(new AdmissionInputError("bad amount")) }).leases.acquire(request()),
    );
    expect(input).toMatchObject({ kind: "invalid_request", message: "bad amount" });
    const own = new GatewayError("permission", "no", { code: "service_not_allowed" });
    expect(await refusal(() => setup({ store: broken(own) }).leases.acquire(request()))).toBe(own);
  });

  it("answers 503 when the store is down, or no lease with ADMISSION_FAIL_OPEN", async () => {
    const down = { view: async () => Promise.reject(new Error("ECONNREFUSED")) } as unknown as AdmissionStore;
    const closed = await refusal(() => setup({ store: down }).leases.acquire(request()));
    expect(closed).toMatchObject({ kind: "service_unavailable", code: "dependency_unavailable" });
    const open = await setup({ store: down, settings: { failOpen: true } }).leases.acquire(request());
    expect(open.granted).toBe(false);
  });

  it("gives up after a bounded number of loads when the view stays cold", async () => {
    const store = new MemoryAdmissionStore();
    const admission = { reload: async () => {}, reloadKey: async () => {} } as unknown as Admission;
    let loads = 0;
    const counting = {
      ...admission,
      reload: async () => {
        loads++;
      },
    } as unknown as Admission;
    const leases = new Leases({
      store,
      admission: counting,
      logger: silentLogger(),
      settings: SETTINGS,
      clock: () => NOW,
    });
    const error = await refusal(() => leases.acquire(request()));
    expect(error.kind).toBe("service_unavailable");
    expect(loads).toBe(5);
  });

  describe("with a paid-model request ceiling", () => {
    const ceiling = (perMinute: number, now = NOW) =>
      setup({ settings: { paidRequestsPerMinute: perMinute }, now });
    /** Single paid requests (or `take` of them at once) counted in the minute of NOW, as Admit does. */
    const paidRequests = (holdId: string, limit: number, take = 1) => ({
      accountId: "acct-1",
      holdId,
      amountPico: 0n,
      ttlMs: 60_000,
      now: NOW,
      rates: [{ name: "paid:minute", limit, windowStartMs: NOW, windowEndMs: NOW + 60_000, take }],
    });

    it("counts the lease's slice (1/16 of the ceiling) in the minute and tells the edge its size", async () => {
      const { leases, store } = ceiling(1_600);
      const granted = await leases.acquire(request());
      expect(granted).toMatchObject({ granted: true, grantedRequests: 100 });
      // 100 of 1,600 are counted: 1,500 single requests still fit, the 1,501st does not.
      expect((await store.admit(paidRequests("rest", 1_600, 1_500))).status).toBe("admitted");
      expect((await store.admit(paidRequests("one-more", 1_600))).status).toBe("rate_limited");
    });

    it("a retried acquire of the same lease counts its slice once", async () => {
      const { leases, store } = ceiling(32);
      expect((await leases.acquire(request())).grantedRequests).toBe(2);
      expect((await leases.acquire(request())).grantedRequests).toBe(2);
      expect((await store.admit(paidRequests("rest", 32, 30))).status).toBe("admitted");
      expect((await store.admit(paidRequests("one-more", 32))).status).toBe("rate_limited");
    });

    it("grants the requests the edge asked for when they are fewer than the slice", async () => {
      const { leases, store } = ceiling(1_600);
      const granted = await leases.acquire(request({ requestedRequests: 16 }));
      expect(granted).toMatchObject({ granted: true, grantedRequests: 16 });
      // 16 of 1,600 counted: 1,584 single requests still fit.
      expect((await store.admit(paidRequests("rest", 1_600, 1_584))).status).toBe("admitted");
      expect((await store.admit(paidRequests("one-more", 1_600))).status).toBe("rate_limited");
      expect(
        (await ceiling(1_600).leases.acquire(request({ requestedRequests: 5_000 }))).grantedRequests,
      ).toBe(100);
    });

    it("grants at least one request however small the ceiling", async () => {
      expect((await ceiling(3).leases.acquire(request())).grantedRequests).toBe(1);
    });

    it("declines the lease, holding nothing, when its slice no longer fits the minute", async () => {
      const { leases, store } = ceiling(32);
      await store.load("acct-1", { balancePico: 1_000_000n, seq: 1n }, NOW);
      expect((await store.admit(paidRequests("fill", 32, 31))).status).toBe("admitted");
      const declined = await leases.acquire(request());
      expect(declined).toMatchObject({ granted: false, grantedRequests: 0 });
      expect((await store.view("acct-1", NOW))?.holds["lease-1"]).toBeUndefined();
    });

    it("ends the lease's use with the minute its slice was counted in", async () => {
      const late = NOW + 50_000;
      const granted = await ceiling(1_600, late).leases.acquire(request());
      expect(granted.useUntilUnixMs).toBe(BigInt(NOW + 60_000));
      const early = await ceiling(1_600).leases.acquire(request());
      expect(early.useUntilUnixMs).toBe(BigInt(NOW + 30_000));
    });

    it("grants no request count when the ceiling is off", async () => {
      const granted = await ceiling(0).leases.acquire(request());
      expect(granted).toMatchObject({
        granted: true,
        grantedRequests: 0,
        useUntilUnixMs: BigInt(NOW + 30_000),
      });
    });
  });
});
