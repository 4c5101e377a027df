import { silentLogger } from "@gw/logger";
import { LimitReset as BillingLimitReset } from "@gw/proto/billing/v1/billing";
import { LimitReset } from "@gw/proto/keys/v1/keys";
import { afterEach, describe, expect, it } from "vitest";
import { RecordingBilling } from "../test/billing.js";
import { testKey } from "../test/principals.js";
import { LeaseBook, type LeaseSettings } from "./lease-book.js";

const WORST = 1_000n;

function setup(settings: Partial<LeaseSettings> = {}) {
  const billing = new RecordingBilling();
  billing.leaseGrantPico = 1_000_000n;
  let time = 1_000_000;
  const clock = {
    now: () => time,
    advance: (ms: number) => {
      time += ms;
    },
  };
  // A sweep far in the future: tests drive retirement through reserve() and close() only.
  billing.now = clock.now;
  const book = new LeaseBook({
    billing,
    logger: silentLogger(),
    now: clock.now,
    settings: { sweepMs: 3_600_000, ...settings },
  });
  books.push(book);
  return { billing, clock, book, principal: testKey("acct-1").principal };
}

const books: LeaseBook[] = [];
afterEach(async () => {
  await Promise.all(books.splice(0).map((book) => book.close()));
});

describe("LeaseBook", () => {
  it("admits requests under one lease with a single AcquireLease call", async () => {
    const { billing, book, principal } = setup();
    const holds = [];
    for (let i = 0; i < 10; i++) holds.push(await book.reserve(principal, WORST));
    expect(holds.every((hold) => hold !== undefined)).toBe(true);
    expect(billing.leaseAcquires).toHaveLength(1);
    expect(billing.leaseAcquires[0]).toMatchObject({
      accountId: "acct-1",
      keyHash: principal.keyHash,
      minPico: WORST * 8n,
      requestedPico: WORST * 16n,
      requestedRequests: 16,
      keyLimit: undefined,
    });
    expect(billing.admits).toHaveLength(0);
  });

  it("starts no more requests under a lease than billing counted for it, then acquires the next", async () => {
    const { billing, book, principal } = setup();
    billing.leaseGrantRequests = 3;
    const holds = [];
    for (let i = 0; i < 7; i++) holds.push(await book.reserve(principal, WORST));
    expect(holds.every((hold) => hold !== undefined)).toBe(true);
    expect(billing.leaseAcquires).toHaveLength(3);
    // Each lease was used up at once, so each next one asks for twice the requests (and money).
    expect(billing.leaseAcquires.map((request) => request.requestedRequests)).toEqual([16, 32, 64]);
    const perLease = new Map<string, number>();
    for (const hold of holds)
      perLease.set(hold?.lease.id ?? "", (perLease.get(hold?.lease.id ?? "") ?? 0) + 1);
    expect([...perLease.values()]).toEqual([3, 3, 1]);
    expect(holds[6]?.lease.requestsLeft).toBe(2);
    expect(billing.admits).toHaveLength(0);
  });

  it("puts no count bound on a lease granted without a request ceiling", async () => {
    const { billing, book, principal } = setup();
    const holds = [];
    // The lease's money covers 16 worst cases; every one of them starts under it.
    for (let i = 0; i < 16; i++) holds.push(await book.reserve(principal, WORST));
    expect(billing.leaseAcquires).toHaveLength(1);
    expect(holds[15]?.lease.requestsLeft).toBeUndefined();
  });

  it("shares one acquisition among concurrent requests", async () => {
    const { billing, book, principal } = setup();
    const holds = await Promise.all(Array.from({ length: 12 }, () => book.reserve(principal, WORST)));
    expect(holds.every((hold) => hold !== undefined)).toBe(true);
    expect(billing.leaseAcquires).toHaveLength(1);
    expect(new Set(holds.map((hold) => hold?.lease.id)).size).toBe(1);
  });

  it("sizes the next lease for a burst that is waiting, so the burst makes no Admit call per request", async () => {
    // 500 streams opened at once on one key (the bench's open-streams scenario): the first lease covers
    // 16; the 484 requests waiting on it must not each fall back to their own Admit, a burst of remote
    // calls that a loaded billing answered too late (503 dependency_unavailable for 452 of 500).
    const { billing, book, principal } = setup();
    const holds = await Promise.all(Array.from({ length: 500 }, () => book.reserve(principal, WORST)));
    expect(holds.filter((hold) => hold === undefined)).toHaveLength(0);
    expect(billing.admits).toHaveLength(0);
    expect(billing.leaseAcquires.map((request) => request.requestedRequests)).toEqual([16, 484]);
    expect(billing.leaseAcquires[1]?.requestedPico).toBe(WORST * 484n);
  });

  it("uses the lease of the last acquisition a request waited for instead of stranding it", async () => {
    // Leases of exactly one worst case: each acquisition serves one of four concurrent requests.
    const { billing, book, principal } = setup({ minMultiple: 1, initialMultiple: 1 });
    billing.leaseGrantPico = WORST;
    const holds = await Promise.all(Array.from({ length: 4 }, () => book.reserve(principal, WORST)));
    // A request waits for at most three acquisitions; the third one's lease serves a request too (it
    // was left unused in billing until its idle return), and only the fourth request goes to Admit.
    expect(billing.leaseAcquires).toHaveLength(3);
    const leased = holds.filter((hold) => hold !== undefined);
    expect(leased).toHaveLength(3);
    expect(new Set(leased.map((hold) => hold.lease.id)).size).toBe(3);
  });

  it("never reserves more than the lease was granted", async () => {
    const { billing, book, principal } = setup({ minMultiple: 1 });
    billing.leaseGrantPico = WORST * 3n;
    const holds = [];
    for (let i = 0; i < 3; i++) holds.push(await book.reserve(principal, WORST));
    const first = holds[0]?.lease;
    expect(first?.remainingPico).toBe(0n);
    // The fourth cannot fit: the lease retires and a new one is acquired.
    const fourth = await book.reserve(principal, WORST);
    expect(fourth?.lease).not.toBe(first);
    expect(first?.retired).toBe(true);
    expect(billing.leaseAcquires).toHaveLength(2);
  });

  it("returns a used-up lease with the actual cost once its last request finishes", async () => {
    const { billing, book, principal } = setup({ minMultiple: 1 });
    billing.leaseGrantPico = WORST * 2n;
    const a = await book.reserve(principal, WORST);
    const b = await book.reserve(principal, WORST);
    if (!a || !b) throw new Error("expected two leased holds");
    await book.reserve(principal, WORST); // retires the first lease: it cannot cover a third
    expect(billing.leaseReturns).toHaveLength(0);
    book.finish(a, 300n);
    expect(billing.leaseReturns).toHaveLength(0);
    book.finish(b, 450n);
    await Promise.resolve();
    expect(billing.leaseReturns).toEqual([{ leaseId: a.lease.id, accountId: "acct-1", spentPico: 750n }]);
  });

  it("gives a finished request's unused reservation back to the lease", async () => {
    const { book, principal, billing } = setup({ minMultiple: 1 });
    billing.leaseGrantPico = WORST;
    const hold = await book.reserve(principal, WORST);
    if (!hold) throw new Error("expected a leased hold");
    book.finish(hold, 100n);
    expect(hold.lease.remainingPico).toBe(WORST - 100n);
    expect(hold.lease.spentPico).toBe(100n);
  });

  it("falls back to Admit, without asking again for a while, when billing declines", async () => {
    const { billing, book, principal, clock } = setup();
    billing.leaseGrantPico = undefined;
    expect(await book.reserve(principal, WORST)).toBeUndefined();
    expect(await book.reserve(principal, WORST)).toBeUndefined();
    expect(billing.leaseAcquires).toHaveLength(1);
    clock.advance(1_001);
    billing.leaseGrantPico = 1_000_000n;
    expect(await book.reserve(principal, WORST)).toBeDefined();
    expect(billing.leaseAcquires).toHaveLength(2);
  });

  it("falls back to Admit when billing cannot be reached", async () => {
    const { billing, book, principal } = setup();
    billing.unavailable = true;
    expect(await book.reserve(principal, WORST)).toBeUndefined();
  });

  it("asks for no lease smaller than eight worst cases: nearer a limit, every request gets its own Admit", async () => {
    const { billing, book, principal } = setup();
    billing.leaseGrantPico = WORST * 8n - 1n;
    expect(await book.reserve(principal, WORST)).toBeUndefined();
  });

  it("starts no request under a lease past its use window", async () => {
    const { billing, book, principal, clock } = setup();
    const first = await book.reserve(principal, WORST);
    clock.advance(billing.leaseUseMs);
    const second = await book.reserve(principal, WORST);
    expect(second?.lease).not.toBe(first?.lease);
    expect(billing.leaseAcquires).toHaveLength(2);
  });

  it("doubles the next lease when one is used up quickly", async () => {
    const { billing, book, principal } = setup();
    billing.leaseGrantPico = WORST * 16n;
    for (let i = 0; i < 17; i++) await book.reserve(principal, WORST);
    expect(billing.leaseAcquires.map((request) => request.requestedPico)).toEqual([WORST * 16n, WORST * 32n]);
  });

  it("keeps a separate lease per key and per key limit", async () => {
    const { billing, book, principal } = setup();
    const limited = { ...principal, limitPico: 5_000_000n, limitReset: LimitReset.LIMIT_RESET_DAILY };
    const other = testKey("acct-2").principal;
    const holds = [
      await book.reserve(principal, WORST),
      await book.reserve(limited, WORST),
      await book.reserve(other, WORST),
    ];
    expect(new Set(holds.map((hold) => hold?.lease.id)).size).toBe(3);
    expect(billing.leaseAcquires[1]?.keyLimit).toEqual({
      limitPico: 5_000_000n,
      reset: BillingLimitReset.LIMIT_RESET_DAILY,
      includeByok: false,
    });
    expect(billing.leaseAcquires[2]?.accountId).toBe("acct-2");
  });

  it("returns every idle lease on close", async () => {
    const { billing, book, principal } = setup();
    const hold = await book.reserve(principal, WORST);
    if (!hold) throw new Error("expected a leased hold");
    book.finish(hold, 10n);
    await book.close();
    expect(billing.leaseReturns).toEqual([{ leaseId: hold.lease.id, accountId: "acct-1", spentPico: 10n }]);
  });

  it("returns an idle lease after the idle timeout so other edges can use the budget", async () => {
    const { billing, book, principal, clock } = setup({ sweepMs: 10, idleReturnMs: 50 });
    const hold = await book.reserve(principal, WORST);
    if (!hold) throw new Error("expected a leased hold");
    book.finish(hold, 10n);
    clock.advance(60);
    // The sweep runs on a real 10 ms timer: wait for it, however loaded the machine is.
    await expect.poll(() => billing.leaseReturns.map((request) => request.leaseId)).toEqual([hold.lease.id]);
  });

  it("leases nothing when turned off", async () => {
    const { billing, book, principal } = setup({ enabled: false });
    expect(await book.reserve(principal, WORST)).toBeUndefined();
    expect(billing.leaseAcquires).toHaveLength(0);
  });
});
