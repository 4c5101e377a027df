import type { AccountLedgerEntry, ApplyResult } from "../admission-store.js";
import { accountKeys } from "./keys.js";
import { BATCH_ENTRY_FIELDS } from "./lua.js";
import { parseApply, UnexpectedReplyError } from "./replies.js";
import type { ScriptCall } from "./script.js";

/**
 * How many entries one batch script applies at most (an account's entries are never split, so a
 * single account may exceed it). Redis runs a script to completion before serving anyone else, so this
 * bounds how long one call can hold up an Admit: a few hundred entries take a few milliseconds.
 */
export const MAX_ENTRIES_PER_SCRIPT = 256;

/** One script call's share of a batch: its keys and arguments, and where its entries sit in the batch. */
export interface BatchChunk {
  call: ScriptCall;
  positions: number[];
}

export interface ChunkSettings {
  prefix: string;
  viewTtlMs: number;
  coldEntryTtlMs: number;
  /** A Redis Cluster: one account per script, since one script's keys must share a slot. */
  accountPerChunk: boolean;
}

/**
 * Splits a batch into script calls: whole accounts, in order of first appearance, at most
 * MAX_ENTRIES_PER_SCRIPT entries a call (one account a call on a cluster). An account's entries keep
 * their batch order inside its call, and no two calls share an account, so the calls commute.
 */
export function chunkBatch(entries: readonly AccountLedgerEntry[], settings: ChunkSettings): BatchChunk[] {
  const byAccount = new Map<string, number[]>();
  entries.forEach(({ accountId }, position) => {
    const positions = byAccount.get(accountId);
    if (positions) positions.push(position);
    else byAccount.set(accountId, [position]);
  });
  const chunks: BatchChunk[] = [];
  let current: { accounts: string[]; positions: number[] } | undefined;
  for (const [accountId, positions] of byAccount) {
    const full =
      current !== undefined &&
      (settings.accountPerChunk || current.positions.length + positions.length > MAX_ENTRIES_PER_SCRIPT);
    if (!current || full) {
      if (current) chunks.push(buildChunk(entries, current, settings));
      current = { accounts: [], positions: [] };
    }
    current.accounts.push(accountId);
    current.positions.push(...positions);
  }
  if (current) chunks.push(buildChunk(entries, current, settings));
  return chunks;
}

function buildChunk(
  entries: readonly AccountLedgerEntry[],
  group: { accounts: string[]; positions: number[] },
  settings: ChunkSettings,
): BatchChunk {
  const number = new Map(group.accounts.map((accountId, index) => [accountId, index + 1]));
  const keys = group.accounts.flatMap((accountId) => accountKeys(settings.prefix, accountId));
  const args = [String(settings.viewTtlMs), String(settings.coldEntryTtlMs)];
  // Positions ascend within each account; sorted overall, the call applies in batch order.
  const positions = [...group.positions].sort((a, b) => a - b);
  for (const position of positions) {
    const { accountId, entry } = entries[position] as AccountLedgerEntry;
    args.push(
      String(number.get(accountId)),
      String(entry.entryId),
      String(entry.amountPico),
      entry.pendingRef ?? "",
      entry.keyHash ?? "",
      String(entry.createdAtMs ?? 0),
      entry.isPurchase ? "1" : "0",
      String(entry.byokPico ?? 0n),
      entry.leaseRef ?? "",
    );
  }
  if (args.length !== 2 + positions.length * BATCH_ENTRY_FIELDS) throw new Error("batch apply arguments");
  return { call: { keys, args }, positions };
}

/** Puts each call's replies back at their entries' places in the batch. */
export function batchResults(
  chunks: readonly BatchChunk[],
  replies: readonly unknown[],
  size: number,
): ApplyResult[] {
  const results = new Array<ApplyResult>(size);
  chunks.forEach((chunk, index) => {
    const reply = replies[index];
    if (!Array.isArray(reply) || reply.length !== chunk.positions.length) {
      throw new UnexpectedReplyError("applyBatch", reply);
    }
    chunk.positions.forEach((position, at) => {
      results[position] = parseApply(reply[at]);
    });
  });
  return results;
}
