import { silentLogger } from "@gw/logger";
import type { AcquireLeaseResponse, ReturnLeaseRequest } from "@gw/proto/billing/v1/billing";
import { afterEach, describe, expect, it } from "vitest";
import { RecordingBilling } from "../test/billing.js";
import { testKey } from "../test/principals.js";
import { LeaseBook, type LeaseSettings } from "./lease-book.js";

// The lease book's boundaries: when a declined key is asked again, when a lease counts as used up
// quickly, what a zero worst case asks for, and what the sweep may and may not retire.

const WORST = 1_000n;
const books: LeaseBook[] = [];
afterEach(async () => {
  await Promise.all(books.splice(0).map((book) => book.close()));
});

function setup(settings: Partial<LeaseSettings> = {}) {
  const billing = new RecordingBilling();
  billing.leaseGrantPico = 1_000_000n;
  let time = 1_000_000;
  const clock = { now: () => time, advance: (ms: number) => (time += ms) };
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

describe("LeaseBook bounds", () => {
  it("asks a declined key again exactly when the backoff ends", async () => {
    const { billing, book, principal, clock } = setup({ declinedBackoffMs: 1_000 });
    billing.leaseGrantPico = undefined;
    expect(await book.reserve(principal, WORST)).toBeUndefined();
    billing.leaseGrantPico = 1_000_000n;
    clock.advance(999);
    expect(await book.reserve(principal, WORST)).toBeUndefined();
    expect(billing.leaseAcquires).toHaveLength(1);
    clock.advance(1);
    expect(await book.reserve(principal, WORST)).toBeDefined();
    expect(billing.leaseAcquires).toHaveLength(2);
  });

  it("backs off after billing could not be reached as after a decline", async () => {
    const { billing, book, principal, clock } = setup({ declinedBackoffMs: 1_000 });
    billing.unavailable = true;
    expect(await book.reserve(principal, WORST)).toBeUndefined();
    billing.unavailable = false;
    clock.advance(999);
    expect(await book.reserve(principal, WORST)).toBeUndefined();
    expect(billing.leaseAcquires).toHaveLength(0);
    clock.advance(1);
    expect(await book.reserve(principal, WORST)).toBeDefined();
  });

  it("treats a grant below the minimum it asked for as a decline", async () => {
    const { billing, book, principal } = setup();
    billing.acquireLease = async (request): Promise<AcquireLeaseResponse> => {
      billing.leaseAcquires.push(request);
      return {
        granted: true,
        grantedPico: request.minPico - 1n,
        useUntilUnixMs: 2_000_000n,
        expiresUnixMs: 3_000_000n,
        grantedRequests: 0,
      };
    };
    expect(await book.reserve(principal, WORST)).toBeUndefined();
    expect(await book.reserve(principal, WORST)).toBeUndefined();
    expect(billing.leaseAcquires).toHaveLength(1);
  });

  it("sizes a lease for a free request (worst case 0) in units of one pico", async () => {
    const { billing, book, principal } = setup();
    const hold = await book.reserve(principal, 0n);
    expect(hold?.reservedPico).toBe(0n);
    expect(billing.leaseAcquires[0]).toMatchObject({ requestedPico: 16n, minPico: 8n });
  });

  it("doubles the next lease only when one was used up in less than fastUseMs, and never past maxMultiple", async () => {
    const { billing, book, principal, clock } = setup({ fastUseMs: 2_000, maxMultiple: 32 });
    billing.leaseGrantPico = WORST * 16n;
    const useUp = async () => {
      for (let i = 0; i < 16; i++) await book.reserve(principal, WORST);
    };
    await useUp();
    clock.advance(2_000); // used up in exactly fastUseMs: not quick
    await book.reserve(principal, WORST); // retires the first lease, acquires the second (16)
    await useUp(); // the second is used up within 0 ms → the third asks for 32
    await useUp(); // the third (granted 16) is used up quickly too → capped at 32
    expect(billing.leaseAcquires.map((request) => request.requestedPico)).toEqual([
      WORST * 16n,
      WORST * 16n,
      WORST * 32n,
      WORST * 32n,
    ]);
  });

  it("does not grow the next lease when the last one simply reached its use window", async () => {
    const { billing, book, principal, clock } = setup({ fastUseMs: 2_000 });
    // A use window shorter than fastUseMs: reaching it quickly is not being used up quickly.
    billing.leaseUseMs = 1_000;
    await book.reserve(principal, WORST);
    clock.advance(1_000);
    await book.reserve(principal, WORST);
    expect(billing.leaseAcquires.map((request) => request.requestedPico)).toEqual([WORST * 16n, WORST * 16n]);
  });

  it("the sweep leaves a lease alone while a request runs under it and it is within its window", async () => {
    const { billing, book, principal, clock } = setup({ sweepMs: 5, idleReturnMs: 50 });
    const running = await book.reserve(principal, WORST);
    clock.advance(100);
    const ticks = billing.leaseReturns.length;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(billing.leaseReturns.length).toBe(ticks);
    expect((await book.reserve(principal, WORST))?.lease).toBe(running?.lease);
    expect(billing.leaseAcquires).toHaveLength(1);
  });

  it("the sweep retires a lease past its use window, and returns it once its request finishes", async () => {
    const { billing, book, principal, clock } = setup({ sweepMs: 5 });
    const running = await book.reserve(principal, WORST);
    if (!running) throw new Error("expected a leased hold");
    clock.advance(billing.leaseUseMs);
    await expect.poll(() => running.lease.retired).toBe(true);
    expect(billing.leaseReturns).toHaveLength(0);
    book.finish(running, 70n);
    await expect
      .poll(() => billing.leaseReturns)
      .toEqual([{ leaseId: running.lease.id, accountId: "acct-1", spentPico: 70n }]);
  });

  it("close waits for the lease returns it started", async () => {
    const { billing, book, principal } = setup();
    const returned: ReturnLeaseRequest[] = [];
    billing.returnLease = async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      returned.push(request);
      return {};
    };
    const hold = await book.reserve(principal, WORST);
    if (!hold) throw new Error("expected a leased hold");
    book.finish(hold, 5n);
    await book.close();
    expect(returned).toEqual([{ leaseId: hold.lease.id, accountId: "acct-1", spentPico: 5n }]);
  });

  it("after close no lease is kept: a later reserve acquires a new one", async () => {
    const { billing, book, principal } = setup();
    const first = await book.reserve(principal, WORST);
    if (first) book.finish(first, 1n);
    await book.close();
    const again = await book.reserve(principal, WORST);
    expect(again?.lease).not.toBe(first?.lease);
    expect(billing.leaseAcquires).toHaveLength(2);
  });
});
