import { isIP } from "node:net";
import { GatewayError } from "@gw/errors";
import { type Kysely, sql } from "kysely";
import type { KeysTables } from "../../db/schema.js";

/**
 * How many accounts wallet sign-in and first payments may create per fixed window: per client address
 * and in total (ACCOUNT_CREATION_*). 0 turns that limit off. Only creations count: a wallet that
 * already has an account signs in and pays whatever these say.
 */
export interface AccountCreationLimits {
  perAddress: number;
  global: number;
  windowSeconds: number;
}

/**
 * 20 an hour per address leaves room for a team behind one NAT or a developer's test wallets, while
 * a script from one address makes at most 480 accounts a day instead of thousands a minute; 1,000 an
 * hour overall is far above a young gateway's organic sign-ups and bounds what a spread-out flood
 * can leave for the sweep (identity/accounts/sweep.ts) to remove.
 */
export const DEFAULT_ACCOUNT_CREATION_LIMITS: AccountCreationLimits = {
  perAddress: 20,
  global: 1_000,
  windowSeconds: 3_600,
};

/** Who is asking for a new account: the limits, the caller's address as the edge saw it, the time. */
export interface CreationRequest {
  limits: AccountCreationLimits;
  clientAddress: string;
  now: Date;
}

/**
 * Counts one new account against the caller's address and the global window, or refuses with 429 and
 * `Retry-After` (the window's end). Runs in the transaction that creates the account, so a refused or
 * failed creation counts nothing and every replica shares one exact count (the row lock of
 * `insert … on conflict do update … where created < limit` serialises takers of the same window).
 */
export async function takeCreationSlot(trx: Kysely<KeysTables>, request: CreationRequest): Promise<void> {
  const { limits, now } = request;
  const windowMs = limits.windowSeconds * 1_000;
  const start = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const retryAfter = Math.max(1, Math.ceil((start.getTime() + windowMs - now.getTime()) / 1_000));
  const bucket = addressBucket(request.clientAddress);
  if (limits.perAddress > 0 && !(await take(trx, "address", bucket, start, limits.perAddress)))
    throw creationLimited(
      "address",
      `from this client address (${limits.perAddress} per window)`,
      retryAfter,
    );
  if (limits.global > 0 && !(await take(trx, "global", "", start, limits.global)))
    throw creationLimited("global", `on this gateway (${limits.global} per window)`, retryAfter);
}

async function take(
  trx: Kysely<KeysTables>,
  scope: "address" | "global",
  subject: string,
  windowStart: Date,
  limit: number,
): Promise<boolean> {
  const taken = await sql<{ created: number }>`
    insert into account_creation_windows (scope, subject, window_start, created)
    values (${scope}, ${subject}, ${windowStart}, 1)
    on conflict (scope, subject, window_start) do update
      set created = account_creation_windows.created + 1
      where account_creation_windows.created < ${limit}
    returning created`.execute(trx);
  return taken.rows.length > 0;
}

/** Forgets windows that ended before `before` (the sweep calls it; a counter is useless once over). */
export async function pruneCreationWindows(db: Kysely<KeysTables>, before: Date): Promise<number> {
  const result = await db
    .deleteFrom("account_creation_windows")
    .where("window_start", "<", before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The bucket an address counts in. An IPv6 client usually holds a whole /64 (and can pick any address
 * in it per request), so IPv6 addresses count per /64; IPv4 per address. Anything else (a peer Node
 * could not name) counts as itself.
 */
export function addressBucket(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)?.[1];
  if (mapped) return mapped;
  if (isIP(address) !== 6) return address;
  // A trailing dotted quad (`64:ff9b::1.2.3.4`) is two groups; only the first four groups matter.
  const plain = (address.toLowerCase().split("%")[0] ?? "").replace(/\d+\.\d+\.\d+\.\d+$/, "0:0");
  const [head = "", tail = ""] = plain.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === "" ? [] : tail.split(":");
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(":")}::/64`;
}

function creationLimited(scope: "address" | "global", where: string, retryAfter: number): GatewayError {
  return new GatewayError(
    "rate_limit",
    `too many new accounts ${where}; retry after ${retryAfter} s (an existing wallet can sign in at any time)`,
    {
      code: "account_creation_limited",
      metadata: { limit_source: "account_creation", scope },
      headers: { "Retry-After": String(retryAfter) },
    },
  );
}
