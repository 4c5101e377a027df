import {
  type AccountLedgerEntry,
  type AccountView,
  type AdmissionStore,
  type AdmissionStoreOptions,
  type AdmitRequest,
  type AdmitResult,
  type ApplyResult,
  type KeyLoadResult,
  type KeySpendSnapshot,
  type LedgerEntryUpdate,
  type LedgerSnapshot,
  type LoadResult,
  type ResolvedStoreOptions,
  type ReturnLeaseResult,
  resolveStoreOptions,
  type SettleResult,
} from "../admission-store.js";
import {
  checkAccountId,
  checkAdmitRequest,
  checkAmount,
  checkEntries,
  checkEntry,
  checkKeySnapshot,
  checkRef,
  checkSnapshot,
  checkTime,
} from "../validate.js";
import { batchResults, chunkBatch } from "./apply-batch.js";
import { accountKeys, checkPrefix, keyWindow, rateKey } from "./keys.js";
import {
  ADMIT_LUA,
  APPLY_BATCH_LUA,
  APPLY_LUA,
  LOAD_KEY_LUA,
  LOAD_LUA,
  RELEASE_LUA,
  RETURN_LEASE_LUA,
  SETTLE_LUA,
  VIEW_LUA,
} from "./lua.js";
import {
  parseAdmit,
  parseApply,
  parseLoad,
  parseLoadKey,
  parseRelease,
  parseReturnLease,
  parseSettle,
  parseView,
} from "./replies.js";
import { LuaScript, type RedisClient } from "./script.js";

export interface RedisStoreOptions extends AdmissionStoreOptions {
  /** Prepended to every key (e.g. `gw:billing:`); tests use a unique one each. */
  keyPrefix?: string;
}

const SCRIPTS = {
  admit: new LuaScript(ADMIT_LUA),
  load: new LuaScript(LOAD_LUA),
  loadKey: new LuaScript(LOAD_KEY_LUA),
  settle: new LuaScript(SETTLE_LUA),
  release: new LuaScript(RELEASE_LUA),
  apply: new LuaScript(APPLY_LUA),
  applyBatch: new LuaScript(APPLY_BATCH_LUA),
  returnLease: new LuaScript(RETURN_LEASE_LUA),
  view: new LuaScript(VIEW_LUA),
};

/**
 * The production admission store: each operation is one Lua script (one round trip, atomic per
 * account); a batch of ledger entries is one script over all its accounts. Works on a single Redis or a Redis Cluster since an account's keys share a slot.
 */
export class RedisAdmissionStore implements AdmissionStore {
  private readonly options: ResolvedStoreOptions;
  private readonly prefix: string;

  constructor(
    private readonly redis: RedisClient,
    options: RedisStoreOptions = {},
  ) {
    this.options = resolveStoreOptions(options);
    this.prefix = checkPrefix(options.keyPrefix ?? "gw:billing:");
  }

  async admit(request: AdmitRequest): Promise<AdmitResult> {
    const { accountId, holdId, amountPico, ttlMs, now, keyLimit } = checkAdmitRequest(request);
    const rates = request.rates ?? [];
    const args: Array<string | number | bigint> = [
      holdId,
      amountPico,
      now + ttlMs,
      now,
      this.options.viewTtlMs,
      this.options.maxViewAgeMs,
      keyLimit ? keyWindow(keyLimit.keyHash, keyLimit.windowStartMs, keyLimit.includeByok) : "",
      keyLimit?.limitPico ?? 0n,
    ];
    for (const rate of rates) {
      args.push(
        rate.limit,
        rate.upgrade?.limit ?? "",
        rate.upgrade?.minPurchasedPico ?? 0n,
        rate.windowEndMs,
        rate.take ?? 1,
      );
    }
    const counters = rates.map((rate) => rateKey(this.prefix, accountId, rate.name, rate.windowStartMs));
    return parseAdmit(await this.run(SCRIPTS.admit, accountId, args, counters), rates);
  }

  async load(accountId: string, snapshot: LedgerSnapshot, now: number = Date.now()): Promise<LoadResult> {
    const { balancePico, seq, purchasedPico } = checkSnapshot(snapshot);
    const floors = snapshot.rateFloors ?? [];
    const args: Array<string | number | bigint> = [
      balancePico,
      seq,
      checkTime(now),
      this.options.viewTtlMs,
      purchasedPico ?? 0n,
    ];
    for (const floor of floors) args.push(floor.count, floor.windowEndMs);
    const counters = floors.map((floor) => rateKey(this.prefix, accountId, floor.name, floor.windowStartMs));
    return parseLoad(await this.run(SCRIPTS.load, accountId, args, counters));
  }

  async loadKey(accountId: string, snapshot: KeySpendSnapshot): Promise<KeyLoadResult> {
    const { keyHash, windowStartMs, spentPico, seq, includeByok } = checkKeySnapshot(snapshot);
    const args = [keyWindow(keyHash, windowStartMs, includeByok), spentPico, seq, this.options.viewTtlMs];
    return parseLoadKey(await this.run(SCRIPTS.loadKey, accountId, args));
  }

  async settle(accountId: string, holdId: string, costPico: bigint): Promise<SettleResult> {
    const args = [checkRef("hold id", holdId), checkAmount("cost", costPico), this.options.viewTtlMs];
    return parseSettle(await this.run(SCRIPTS.settle, accountId, args));
  }

  async release(accountId: string, holdId: string): Promise<boolean> {
    const args = [checkRef("hold id", holdId), this.options.viewTtlMs];
    return parseRelease(await this.run(SCRIPTS.release, accountId, args));
  }

  async applyLedgerEntry(accountId: string, entry: LedgerEntryUpdate): Promise<ApplyResult> {
    const { entryId, amountPico, pendingRef, keyHash, createdAtMs, isPurchase, byokPico, leaseRef } =
      checkEntry(entry);
    const args = [
      entryId,
      amountPico,
      pendingRef ?? "",
      this.options.viewTtlMs,
      this.options.coldEntryTtlMs,
      keyHash ?? "",
      createdAtMs ?? 0,
      isPurchase ? "1" : "0",
      byokPico ?? 0n,
      leaseRef ?? "",
    ];
    return parseApply(await this.run(SCRIPTS.apply, accountId, args));
  }

  /** One script call for the whole batch, or one pipeline of a few for a large one (apply-batch.ts). */
  async applyLedgerEntries(entries: readonly AccountLedgerEntry[]): Promise<ApplyResult[]> {
    if (checkEntries(entries).length === 0) return [];
    const chunks = chunkBatch(entries, {
      prefix: this.prefix,
      viewTtlMs: this.options.viewTtlMs,
      coldEntryTtlMs: this.options.coldEntryTtlMs,
      accountPerChunk: this.redis.isCluster,
    });
    const replies = await SCRIPTS.applyBatch.runAll(
      this.redis,
      chunks.map((chunk) => chunk.call),
    );
    return batchResults(chunks, replies, entries.length);
  }

  async returnLease(
    accountId: string,
    leaseId: string,
    spentPico: bigint,
    now: number = Date.now(),
  ): Promise<ReturnLeaseResult> {
    const args = [
      checkRef("lease id", leaseId),
      checkAmount("lease spend", spentPico),
      checkTime(now),
      this.options.viewTtlMs,
    ];
    return parseReturnLease(await this.run(SCRIPTS.returnLease, accountId, args));
  }

  async invalidate(accountId: string): Promise<void> {
    await this.redis.del(...accountKeys(this.prefix, checkAccountId(accountId)));
  }

  async view(accountId: string, now: number = Date.now()): Promise<AccountView | undefined> {
    return parseView(await this.run(SCRIPTS.view, accountId, [checkTime(now)]));
  }

  private run(
    script: LuaScript,
    accountId: string,
    args: Array<string | number | bigint>,
    extraKeys: string[] = [],
  ): Promise<unknown> {
    const keys = [...accountKeys(this.prefix, checkAccountId(accountId)), ...extraKeys];
    return script.run(this.redis, keys, args.map(String));
  }
}
