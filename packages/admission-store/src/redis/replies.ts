import type {
  AccountView,
  AdmitResult,
  ApplyResult,
  KeyLoadResult,
  LoadResult,
  RateCheck,
  ReturnLeaseResult,
  SettleResult,
} from "../admission-store.js";

/** Script replies are checked, not cast: a script/code version mismatch must fail loudly. */
export class UnexpectedReplyError extends Error {
  override name = "UnexpectedReplyError";
  constructor(script: string, reply: unknown) {
    super(`unexpected reply from the ${script} script: ${JSON.stringify(reply)}`);
  }
}

function strings(script: string, reply: unknown): string[] {
  if (!Array.isArray(reply) || !reply.every((item) => typeof item === "string")) {
    throw new UnexpectedReplyError(script, reply);
  }
  return reply;
}

function oneOf<T extends string>(script: string, reply: unknown, allowed: readonly T[]): T {
  const match = allowed.find((value) => value === reply);
  if (match === undefined) throw new UnexpectedReplyError(script, reply);
  return match;
}

export function parseAdmit(reply: unknown, rates: readonly RateCheck[] = []): AdmitResult {
  const [status, detail, extra] = strings("admit", reply);
  if (status === "cold" || status === "cold_key") return { status };
  if (status === "admitted" && detail !== undefined) return { status, expiresAt: Number(detail) };
  if (status === "refused" && detail === "insufficient_credits") {
    return { status, reason: detail, limitSource: "account" };
  }
  if (status === "refused" && detail === "quota_exceeded")
    return { status, reason: detail, limitSource: "key" };
  const rate = rates[Number(detail) - 1];
  if (status === "rate_limited" && rate && extra !== undefined) {
    return { status, limitSource: rate.name, limit: Number(extra), resetAtMs: rate.windowEndMs };
  }
  throw new UnexpectedReplyError("admit", reply);
}

export const parseLoadKey = (reply: unknown): KeyLoadResult =>
  oneOf("loadKey", reply, ["loaded", "ignored", "stale", "cold"]);

export const parseLoad = (reply: unknown): LoadResult => oneOf("load", reply, ["loaded", "ignored"]);
export const parseSettle = (reply: unknown): SettleResult =>
  oneOf("settle", reply, ["settled", "no_hold", "cold"]);
export const parseApply = (reply: unknown): ApplyResult =>
  oneOf("apply", reply, ["applied", "included", "cold"]);

export const parseReturnLease = (reply: unknown): ReturnLeaseResult =>
  oneOf("returnLease", reply, ["returned", "no_lease", "cold"]);

export function parseRelease(reply: unknown): boolean {
  if (reply !== 0 && reply !== 1) throw new UnexpectedReplyError("release", reply);
  return reply === 1;
}

export function parseView(reply: unknown): AccountView | undefined {
  if (reply === null) return undefined;
  if (!Array.isArray(reply) || reply.length !== 10) throw new UnexpectedReplyError("view", reply);
  const [balance, seq, held, pending, available, loadedAt, purchased] = strings("view", reply.slice(0, 7));
  return {
    balancePico: BigInt(balance ?? "0"),
    seq: BigInt(seq ?? "0"),
    heldPico: BigInt(held ?? "0"),
    pendingPico: BigInt(pending ?? "0"),
    availablePico: BigInt(available ?? "0"),
    loadedAt: Number(loadedAt),
    purchasedPico: BigInt(purchased ?? "0"),
    holds: pairs(strings("view", reply[7])),
    pendingDebits: pairs(strings("view", reply[8])),
    keyUsed: keyUsed(pairs(strings("view", reply[9]))),
  };
}

function pairs(flat: string[]): Record<string, bigint> {
  const result: Record<string, bigint> = {};
  for (let index = 0; index + 1 < flat.length; index += 2) {
    result[flat[index] as string] = BigInt(flat[index + 1] as string);
  }
  return result;
}

/** Only the `u:` (used) fields of the keys hash, named by their window. */
function keyUsed(fields: Record<string, bigint>): Record<string, bigint> {
  const result: Record<string, bigint> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (name.startsWith("u:")) result[name.slice(2)] = value;
  }
  return result;
}
