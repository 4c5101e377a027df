import { randomUUID } from "node:crypto";
import { type KeyLimit, LimitReset } from "@gw/proto/billing/v1/billing";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { addCredits } from "../operator/credits.js";
import { eventually } from "../test/eventually.js";
import { type Harness, startHarness, USD } from "../test/harness.js";
import { actualCost, ledgerUsage, sleep, usd, WORST } from "../test/overshoot.js";

const KEY = "9".repeat(64);
const MODEL = "openai/gpt-4o";
const EDGES = 4;

interface Wave {
  admitted: number;
  leased: number;
  leasesGranted: number;
  costs: bigint[];
  /** Σ max(0, actual − worst case): how far the estimates fell short. */
  underEstimate: bigint;
}

/** 30–100 % of the worst case, or, when `short`, 110–130 % of it (a systematically low estimator). */

interface Lease {
  id: string;
  granted: bigint;
  /** Worst case of requests in flight + actual cost of finished ones: what the edge admits against. */
  committed: bigint;
  spent: bigint;
  inFlight: number;
  returned: boolean;
}

/**
 * One edge as the lease design has it: requests are admitted locally against its lease (worst case
 * while running, actual cost once finished); an exhausted lease is returned once its requests finish
 * and a new one acquired; when billing grants none, the request goes through Admit / Settle.
 */
class SimulatedEdge {
  private lease: Lease | undefined;
  private acquiring: Promise<Lease | undefined> | undefined;
  private readonly leases: Lease[] = [];

  constructor(
    private readonly harness: Harness,
    private readonly account: string,
    private readonly keyLimit: KeyLimit | undefined,
    private readonly wave: Wave,
    private readonly useLeases: boolean,
  ) {}

  async serve(index: number, short: boolean): Promise<void> {
    const lease = this.useLeases ? await this.leaseFor() : undefined;
    if (lease) return this.serveLeased(lease, index, short);
    const holdId = `gen-${randomUUID()}`;
    const response = await this.harness.rpc.admit({
      holdId,
      accountId: this.account,
      keyHash: KEY,
      modelId: MODEL,
      isFreeModel: false,
      worstCaseCostPico: WORST,
      keyLimit: this.keyLimit,
    });
    if (!response.admitted) return;
    const cost = this.record(index, short);
    await sleep(20 + (index % 5) * 10);
    await this.harness.rpc.settle({ holdId, accountId: this.account, keyHash: KEY, actualCostPico: cost });
    this.publish(cost, holdId, "");
  }

  /**
   * A warm edge holds a lease before its traffic arrives: without this, on a loaded machine the Admit edge's
   * requests can take the whole budget before any lease is asked for, and the wave would test no lease.
   */
  async warm(): Promise<void> {
    if (!this.useLeases) return;
    this.acquiring ??= this.acquire().finally(() => {
      this.acquiring = undefined;
    });
    await this.acquiring;
  }

  /** Returns every lease still out (the wave is over, nothing runs under them). */
  async returnAll(): Promise<void> {
    await Promise.all(this.leases.filter((lease) => !lease.returned).map((lease) => this.returnLease(lease)));
  }

  /** `lease` was reserved for this request by leaseFor. */
  private async serveLeased(lease: Lease, index: number, short: boolean): Promise<void> {
    this.wave.leased++;
    const cost = this.record(index, short);
    await sleep(20 + (index % 5) * 10);
    lease.committed += cost - WORST;
    lease.spent += cost;
    lease.inFlight--;
    this.publish(cost, `gen-${randomUUID()}`, lease.id);
    if (lease !== this.lease && lease.inFlight === 0) await this.returnLease(lease);
  }

  /** A lease with room for one more worst case, reserved for the caller (check and reserve at once). */
  private async leaseFor(): Promise<Lease | undefined> {
    if (reserve(this.lease)) return this.lease;
    this.acquiring ??= this.acquire().finally(() => {
      this.acquiring = undefined;
    });
    const next = await this.acquiring;
    return reserve(next) ? next : undefined;
  }

  private async acquire(): Promise<Lease | undefined> {
    const previous = this.lease;
    this.lease = undefined;
    if (previous && previous.inFlight === 0 && !previous.returned) await this.returnLease(previous);
    const id = `lease-${randomUUID()}`;
    const response = await this.harness.rpc.acquireLease({
      leaseId: id,
      accountId: this.account,
      keyHash: KEY,
      keyLimit: this.keyLimit,
      requestedPico: 10n * WORST,
      minPico: WORST,
      // Billing's whole slice of the default request ceiling, far above this test's traffic.
      requestedRequests: 0,
    });
    if (!response.granted) return undefined;
    this.wave.leasesGranted++;
    const lease = {
      id,
      granted: response.grantedPico,
      committed: 0n,
      spent: 0n,
      inFlight: 0,
      returned: false,
    };
    this.leases.push(lease);
    this.lease = lease;
    return lease;
  }

  private async returnLease(lease: Lease): Promise<void> {
    if (lease.returned) return;
    lease.returned = true;
    await this.harness.rpc.returnLease({
      leaseId: lease.id,
      accountId: this.account,
      spentPico: lease.spent,
    });
  }

  private record(index: number, short: boolean): bigint {
    const cost = actualCost(index, short);
    this.wave.admitted++;
    this.wave.costs.push(cost);
    if (cost > WORST) this.wave.underEstimate += cost - WORST;
    return cost;
  }

  private publish(cost: bigint, eventId: string, leaseId: string): void {
    this.harness.publishUsage(
      { accountId: this.account, keyHash: KEY, costPico: cost, model: MODEL, leaseId },
      eventId,
    );
  }
}

function reserve(lease: Lease | undefined): lease is Lease {
  if (!lease || lease.committed + WORST > lease.granted) return false;
  lease.committed += WORST;
  lease.inFlight++;
  return true;
}

/** 200 requests within ~200 ms over four edges: three lease (each warm with a lease), one admits every request. */
async function fireWave(harness: Harness, account: string, keyLimit: KeyLimit | undefined, short: boolean) {
  const wave: Wave = { admitted: 0, leased: 0, leasesGranted: 0, costs: [], underEstimate: 0n };
  const edges = Array.from(
    { length: EDGES },
    (_, index) => new SimulatedEdge(harness, account, keyLimit, wave, index !== 0),
  );
  await Promise.all(edges.map((edge) => edge.warm()));
  await Promise.all(
    Array.from({ length: 200 }, async (_, index) => {
      await sleep((index * 7) % 200);
      await edges[index % EDGES]?.serve(index, short);
    }),
  );
  await Promise.all(edges.map((edge) => edge.returnAll()));
  return wave;
}

describeWith(["postgres", "redis"], "spend under 200 concurrent requests, leases mixed with Admit", () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness();
  });

  afterAll(async () => {
    await harness.stop();
  });

  const ledgerUsageOf = (account: string, expected: number) => ledgerUsage(harness, account, KEY, expected);

  const report = (name: string, limit: bigint, spent: bigint, wave: Wave) => {
    const over = spent > limit ? spent - limit : 0n;
    const { admitted, leased, leasesGranted } = wave;
    const figures = {
      limit: usd(limit),
      spent: usd(spent),
      overshoot: usd(over),
      admitted,
      leased,
      leasesGranted,
      underEstimate: usd(wave.underEstimate),
    };
    console.log(`lease overshoot ${name}: ${JSON.stringify(figures)}`);
    return over;
  };

  /** After every lease is returned and every event applied, the view agrees with the ledger. */
  const viewSettles = (account: string, balancePico: bigint, keySpentPico?: bigint) =>
    eventually(async () => {
      const view = await harness.store.view(account, harness.clock.value);
      expect(view).toMatchObject({ heldPico: 0n, pendingPico: 0n, balancePico });
      if (keySpentPico !== undefined) expect(Object.values(view?.keyUsed ?? {})).toEqual([keySpentPico]);
    });

  const daily = (limitPico: bigint): KeyLimit => ({
    limitPico,
    reset: LimitReset.LIMIT_RESET_DAILY,
    includeByok: false,
  });

  it("never spends past a key's limit when estimates are high", async () => {
    const account = `acct_${randomUUID()}`;
    const limit = 50n * WORST;
    await addCredits(harness.db.database, { accountId: account, amountPico: 100n * USD, kind: "grant" });
    const wave = await fireWave(harness, account, daily(limit), false);
    const usage = await ledgerUsageOf(account, wave.admitted);
    expect(report("key, estimates high", limit, usage.keyUsageDailyPico, wave)).toBe(0n);
    // 200 requests at ~65 % of the worst case would cost ~130 worst cases: most had to be refused.
    expect(200 - wave.admitted).toBeGreaterThan(100);
    expect(wave.leased).toBeGreaterThan(0);
    await viewSettles(account, 100n * USD - usage.keyUsageDailyPico, usage.keyUsageDailyPico);
  });

  it("lets a key's spend pass its limit by no more than the estimates fell short", async () => {
    const account = `acct_${randomUUID()}`;
    const limit = 50n * WORST;
    await addCredits(harness.db.database, { accountId: account, amountPico: 100n * USD, kind: "grant" });
    const wave = await fireWave(harness, account, daily(limit), true);
    const usage = await ledgerUsageOf(account, wave.admitted);
    const over = report("key, every estimate 10–30 % low", limit, usage.keyUsageDailyPico, wave);
    expect(over).toBeLessThanOrEqual(wave.underEstimate);
    await viewSettles(account, 100n * USD - usage.keyUsageDailyPico, usage.keyUsageDailyPico);
  });

  it("never spends past the account balance when estimates are high", async () => {
    const account = `acct_${randomUUID()}`;
    const balance = 50n * WORST;
    await addCredits(harness.db.database, { accountId: account, amountPico: balance, kind: "purchase" });
    const wave = await fireWave(harness, account, undefined, false);
    const usage = await ledgerUsageOf(account, wave.admitted);
    expect(report("balance, estimates high", balance, usage.totalUsagePico, wave)).toBe(0n);
    // 200 requests at ~65 % of the worst case would cost ~130 worst cases: most had to be refused.
    expect(200 - wave.admitted).toBeGreaterThan(100);
    expect(wave.leased).toBeGreaterThan(0);
    await viewSettles(account, balance - usage.totalUsagePico);
  });

  it("lets the balance go negative by no more than the estimates fell short", async () => {
    const account = `acct_${randomUUID()}`;
    const balance = 50n * WORST;
    await addCredits(harness.db.database, { accountId: account, amountPico: balance, kind: "purchase" });
    const wave = await fireWave(harness, account, undefined, true);
    const usage = await ledgerUsageOf(account, wave.admitted);
    const over = report("balance, every estimate 10–30 % low", balance, usage.totalUsagePico, wave);
    expect(over).toBeLessThanOrEqual(wave.underEstimate);
    await viewSettles(account, balance - usage.totalUsagePico);
  });
});
