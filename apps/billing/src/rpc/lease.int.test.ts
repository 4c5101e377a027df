import { randomUUID } from "node:crypto";
import { status } from "@grpc/grpc-js";
import { connectRedis } from "@gw/admission-store";
import {
  type AcquireLeaseRequest,
  type KeyLimit,
  LimitReset,
  RefusalCode,
} from "@gw/proto/billing/v1/billing";
import { describeWith, serviceUrl } from "@gw/testing";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { addCredits } from "../operator/credits.js";
import { insertUsageEntry, inTransaction } from "../repositories/ledger-write.js";
import { eventually } from "../test/eventually.js";
import { type Harness, redisStore, startHarness, TestClock, USD } from "../test/harness.js";

// Wednesday 2026-03-11 12:00 UTC.
const NOW = Date.UTC(2026, 2, 11, 12, 0, 0);
const HOLD_TTL_MS = 5 * 60_000;
const LEASE_USE_MS = 30_000;
const KEY = "d".repeat(64);
const MODEL = "openai/gpt-4o";

const newAccount = (): string => `acct_${randomUUID()}`;
const daily = (limitPico: bigint): KeyLimit => ({
  limitPico,
  reset: LimitReset.LIMIT_RESET_DAILY,
  includeByok: false,
});

function leaseRequest(
  accountId: string,
  requestedPico: bigint,
  minPico: bigint,
  keyLimit?: KeyLimit,
): AcquireLeaseRequest {
  return {
    leaseId: `lease-${randomUUID()}`,
    accountId,
    keyHash: KEY,
    keyLimit,
    requestedPico,
    minPico,
    requestedRequests: 0,
  };
}

describeWith(["postgres", "redis"], "BillingService leases on Redis", () => {
  let harness: Harness;
  const clock = new TestClock(NOW);

  beforeAll(async () => {
    // Without the paid-model request ceiling: its slice and minute bound are paid-ceiling.int.test.ts's.
    harness = await startHarness({ clock, admission: { holdTtlMs: HOLD_TTL_MS, paidRequestsPerMinute: 0 } });
  });

  beforeEach(() => {
    clock.value = NOW;
  });

  afterAll(async () => {
    await harness.stop();
  });

  const funded = async (amountPico: bigint): Promise<string> => {
    const account = newAccount();
    await addCredits(harness.db.database, { accountId: account, amountPico, kind: "purchase" });
    return account;
  };
  const view = (account: string) => harness.store.view(account, clock.value);
  /** A usage event of the key, as the edge emits it for a request admitted under `leaseId`. */
  const publish = (account: string, costPico: bigint, leaseId: string, eventId?: string) =>
    harness.publishUsage(
      { accountId: account, keyHash: KEY, costPico, model: MODEL, leaseId, createdAt: new Date(clock.value) },
      eventId,
    );

  it("grants at most an eighth of the balance and of the key's remaining limit", async () => {
    const account = await funded(80n * USD);
    expect(await harness.rpc.acquireLease(leaseRequest(account, 100n * USD, 1n))).toEqual({
      granted: true,
      grantedPico: 10n * USD,
      useUntilUnixMs: BigInt(NOW + LEASE_USE_MS),
      expiresUnixMs: BigInt(NOW + HOLD_TTL_MS),
      grantedRequests: 0,
    });
    expect((await harness.rpc.acquireLease(leaseRequest(account, 2n * USD, 1n))).grantedPico).toBe(2n * USD);
    const keyed = await funded(80n * USD);
    await inTransaction(harness.db.database.db, (trx) =>
      insertUsageEntry(trx, {
        accountId: keyed,
        eventId: `gen-${randomUUID()}`,
        keyHash: KEY,
        model: MODEL,
        isByok: false,
        costPico: 8n * USD,
        byokCostPico: 0n,
        createdAt: new Date(NOW - 1_000),
      }),
    );
    // Balance 72 USD (an eighth: 9 USD); the key has 16 − 8 = 8 USD left (an eighth: 1 USD).
    const keyLease = await harness.rpc.acquireLease(leaseRequest(keyed, 100n * USD, 1n, daily(16n * USD)));
    expect(keyLease).toMatchObject({ granted: true, grantedPico: USD });
    expect(Object.values((await view(keyed))?.keyUsed ?? {})).toEqual([9n * USD]);
  });

  it("refuses a lease smaller than min_pico without holding anything", async () => {
    const account = await funded(8n * USD);
    expect(await harness.rpc.acquireLease(leaseRequest(account, 100n * USD, 2n * USD))).toEqual({
      granted: false,
      grantedPico: 0n,
      useUntilUnixMs: 0n,
      expiresUnixMs: 0n,
      grantedRequests: 0,
    });
    expect(await view(account)).toMatchObject({ heldPico: 0n, availablePico: 8n * USD });
    const exact = await harness.rpc.acquireLease(leaseRequest(account, 100n * USD, USD));
    expect(exact).toMatchObject({ granted: true, grantedPico: USD });
  });

  it("counts a lease against the balance and the key's limit for every later Admit", async () => {
    const account = await funded(80n * USD);
    await harness.rpc.acquireLease(leaseRequest(account, 100n * USD, 1n));
    const admit = (worstCaseCostPico: bigint, keyLimit?: KeyLimit) =>
      harness.rpc.admit({
        holdId: `gen-${randomUUID()}`,
        accountId: account,
        keyHash: KEY,
        modelId: MODEL,
        isFreeModel: false,
        worstCaseCostPico,
        keyLimit,
      });
    expect((await admit(71n * USD)).refusal?.code).toBe(RefusalCode.REFUSAL_CODE_INSUFFICIENT_CREDITS);
    const keyed = await funded(80n * USD);
    expect(
      (await harness.rpc.acquireLease(leaseRequest(keyed, 100n * USD, 1n, daily(16n * USD)))).grantedPico,
    ).toBe(2n * USD);
    const keyAdmit = (worst: bigint) =>
      harness.rpc.admit({
        holdId: `gen-${randomUUID()}`,
        accountId: keyed,
        keyHash: KEY,
        modelId: MODEL,
        isFreeModel: false,
        worstCaseCostPico: worst,
        keyLimit: daily(16n * USD),
      });
    expect((await keyAdmit(15n * USD)).refusal?.code).toBe(RefusalCode.REFUSAL_CODE_QUOTA_EXCEEDED);
    expect((await keyAdmit(14n * USD)).admitted).toBe(true);
    expect((await admit(70n * USD)).admitted).toBe(true);
  });

  it("moves a leased request's cost out of the hold once, however often its event arrives", async () => {
    const account = await funded(80n * USD);
    const request = leaseRequest(account, 100n * USD, 1n, daily(1_000n * USD));
    await harness.rpc.acquireLease(request);
    const eventId = publish(account, USD, request.leaseId);
    publish(account, USD, request.leaseId, eventId);
    // A later event proves both copies were consumed before we look.
    publish(account, 0n, "");
    await eventually(async () => {
      expect(await view(account)).toMatchObject({
        balancePico: 79n * USD,
        heldPico: 9n * USD,
        availablePico: 70n * USD,
      });
      expect((await view(account))?.holds).toEqual({ [request.leaseId]: 9n * USD });
      // The key's window: 1 USD spent in the ledger + 9 USD still leased.
      expect(Object.values((await view(account))?.keyUsed ?? {})).toEqual([10n * USD]);
    });
  });

  it("keeps a returned lease's unapplied cost pending until its usage event clears it, once", async () => {
    const account = await funded(80n * USD);
    const request = leaseRequest(account, 100n * USD, 1n);
    await harness.rpc.acquireLease(request);
    publish(account, USD, request.leaseId);
    await eventually(async () => expect((await view(account))?.heldPico).toBe(9n * USD));
    await harness.rpc.returnLease({ leaseId: request.leaseId, accountId: account, spentPico: 3n * USD });
    const returned = await view(account);
    expect(returned).toMatchObject({ heldPico: 0n, pendingPico: 2n * USD, availablePico: 77n * USD });
    expect(returned?.pendingDebits).toEqual({ [request.leaseId]: 2n * USD });
    await harness.rpc.returnLease({ leaseId: request.leaseId, accountId: account, spentPico: 9n * USD });
    expect((await view(account))?.pendingPico).toBe(2n * USD);
    publish(account, 2n * USD, request.leaseId);
    await eventually(async () =>
      expect(await view(account)).toMatchObject({
        balancePico: 77n * USD,
        pendingPico: 0n,
        availablePico: 77n * USD,
      }),
    );
  });

  it("lets an unreturned lease expire with its hold, and a returned lease's pending debit with it", async () => {
    const account = await funded(80n * USD);
    const forgotten = leaseRequest(account, 100n * USD, 1n);
    await harness.rpc.acquireLease(forgotten);
    const returned = leaseRequest(account, 100n * USD, 1n);
    expect((await harness.rpc.acquireLease(returned)).grantedPico).toBe((USD * 70n) / 8n);
    await harness.rpc.returnLease({ leaseId: returned.leaseId, accountId: account, spentPico: 4n * USD });
    expect(await view(account)).toMatchObject({ heldPico: 10n * USD, pendingPico: 4n * USD });
    clock.advance(HOLD_TTL_MS);
    expect(await view(account)).toMatchObject({ heldPico: 0n, pendingPico: 0n, availablePico: 80n * USD });
    await harness.rpc.returnLease({ leaseId: forgotten.leaseId, accountId: account, spentPico: 5n * USD });
    expect(await view(account)).toMatchObject({ pendingPico: 0n, availablePico: 80n * USD });
  });

  it("ignores a ReturnLease that names another account's lease", async () => {
    const owner = await funded(80n * USD);
    const other = await funded(80n * USD);
    const request = leaseRequest(owner, 100n * USD, 1n);
    await harness.rpc.acquireLease(request);
    await harness.rpc.acquireLease(leaseRequest(other, 1n, 1n));
    await harness.rpc.returnLease({ leaseId: request.leaseId, accountId: other, spentPico: 0n });
    expect(await view(owner)).toMatchObject({ heldPico: 10n * USD, availablePico: 70n * USD });
    expect((await view(other))?.pendingPico).toBe(0n);
  });

  it("ends a lease's use with the key's window, and a lifetime limit's after LEASE_USE_MS", async () => {
    const account = await funded(80n * USD);
    clock.value = Date.UTC(2026, 2, 11, 23, 59, 50);
    const nearMidnight = await harness.rpc.acquireLease(leaseRequest(account, USD, 1n, daily(100n * USD)));
    expect(nearMidnight.useUntilUnixMs).toBe(BigInt(Date.UTC(2026, 2, 12)));
    const lifetime = { limitPico: 100n * USD, reset: LimitReset.LIMIT_RESET_UNSPECIFIED, includeByok: false };
    const forever = await harness.rpc.acquireLease(leaseRequest(account, USD, 1n, lifetime));
    expect(forever.useUntilUnixMs).toBe(BigInt(clock.value + LEASE_USE_MS));
  });

  it("rejects malformed requests as INVALID_ARGUMENT", async () => {
    const account = newAccount();
    const invalid = { code: status.INVALID_ARGUMENT };
    await expect(
      harness.rpc.acquireLease({ ...leaseRequest(account, 1n, 1n), leaseId: "" }),
    ).rejects.toMatchObject(invalid);
    await expect(harness.rpc.acquireLease(leaseRequest(account, 1n, -1n))).rejects.toMatchObject(invalid);
    await expect(
      harness.rpc.acquireLease({ ...leaseRequest(account, 1n, 1n, daily(USD)), keyHash: "" }),
    ).rejects.toMatchObject(invalid);
    await expect(
      harness.rpc.returnLease({ leaseId: "l", accountId: account, spentPico: -1n }),
    ).rejects.toMatchObject(invalid);
  });
});

describeWith(["postgres", "redis"], "BillingService leases when Redis is down", () => {
  const startDown = async (failOpen: boolean): Promise<Harness> => {
    const down = await connectRedis(serviceUrl("redis"));
    down.disconnect();
    return startHarness({ store: () => redisStore(down), admission: { failOpen } });
  };

  it("answers UNAVAILABLE by default, and no lease (so the edge's Admit fails open) with ADMISSION_FAIL_OPEN", async () => {
    const closed = await startDown(false);
    try {
      await expect(closed.rpc.acquireLease(leaseRequest(newAccount(), 1n, 1n))).rejects.toMatchObject({
        code: status.UNAVAILABLE,
      });
    } finally {
      await closed.stop();
    }
    const open = await startDown(true);
    try {
      expect((await open.rpc.acquireLease(leaseRequest(newAccount(), 1n, 1n))).granted).toBe(false);
    } finally {
      await open.stop();
    }
  });
});
