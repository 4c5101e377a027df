/**
 * Hand-made mutants of the Lua in lua.ts (issue 29). Stryker mutates JS/TS only, so the Redis store's
 * scripts are held to the contract suite by showing that it catches these: `node scripts/mutate/lua.mjs`
 * runs redis-store.int.test.ts once per mutant, with the mutant applied to lua.ts as it is loaded, and
 * writes which cases failed to docs/mutation/lua.json. Each mutant is an exact text replacement that must
 * match exactly once inside the template literal of its script constant (HELPERS and APPLY_ENTRY are
 * shared by several scripts), so a change to the Lua that makes a mutant stale fails loudly: here
 * (lua.mutants.test.ts) and in the runner. Not part of the build (tsconfig.build.json).
 */

/** The template-literal constants of lua.ts. */
export const LUA_SCRIPTS = [
  "HELPERS",
  "ADMIT_LUA",
  "LOAD_LUA",
  "LOAD_KEY_LUA",
  "SETTLE_LUA",
  "RELEASE_LUA",
  "APPLY_ENTRY",
  "APPLY_LUA",
  "APPLY_BATCH_LUA",
  "RETURN_LEASE_LUA",
  "VIEW_LUA",
] as const;

export type LuaScriptName = (typeof LUA_SCRIPTS)[number];

export interface LuaMutant {
  id: string;
  script: LuaScriptName;
  /** What a defect like this would do to money or limits. */
  description: string;
  find: string;
  replace: string;
}

export const LUA_MUTANTS: readonly LuaMutant[] = [
  // HELPERS: shared by every script.
  {
    id: "id-le-strict",
    script: "HELPERS",
    description: "an entry whose id equals the snapshot's seq is applied again (counted twice)",
    find: "return a <= b",
    replace: "return a < b",
  },
  {
    id: "touch-seven-keys",
    script: "HELPERS",
    description: "the purchases hash gets no TTL (dropped expiry)",
    find: "for i = 1, 8 do redis.call('PEXPIRE', K[i], ttl) end",
    replace: "for i = 1, 7 do redis.call('PEXPIRE', K[i], ttl) end",
  },
  {
    id: "sign-flipped",
    script: "HELPERS",
    description: "every exact comparison answers the opposite sign",
    find: "if result > 0 then return 1 elseif result < 0 then return -1 end",
    replace: "if result > 0 then return -1 elseif result < 0 then return 1 end",
  },
  {
    id: "drop-hold-no-refund",
    script: "HELPERS",
    description: "a released or expired hold never returns its amount to the available balance",
    find: "redis.call('HINCRBY', K[1], 'avail', amount)",
    replace: "",
  },
  {
    id: "drop-pending-keeps-pending",
    script: "HELPERS",
    description: "a dropped pending debit stays in the pending total (missing decrement)",
    find: "redis.call('HINCRBY', K[1], 'pending', neg(cost))",
    replace: "",
  },
  {
    id: "purge-exclusive",
    script: "HELPERS",
    description: "a hold expiring exactly now is not purged (off by one at the expiry)",
    find: "'-inf', now,",
    replace: "'-inf', '(' .. now,",
  },
  {
    id: "key-add-wrong-field",
    script: "HELPERS",
    description: "a key window's spend moves in the wrong field (wrong key)",
    find: "redis.call('HINCRBY', K[6], 'u:' .. win, delta)",
    replace: "redis.call('HINCRBY', K[6], 'q:' .. win, delta)",
  },
  {
    id: "purge-lease-pending-wrong-ref",
    script: "HELPERS",
    description: "an expired returned lease's pending debit is looked up under the p: member (never dropped)",
    find: "drop_pending(string.sub(id, 3))",
    replace: "drop_pending(id)",
  },
  // ADMIT_LUA
  {
    id: "admit-max-age-inclusive",
    script: "ADMIT_LUA",
    description: "a view exactly at its maximum age still admits",
    find: ">= tonumber(ARGV[6]) then return {'cold'} end",
    replace: "> tonumber(ARGV[6]) then return {'cold'} end",
  },
  {
    id: "admit-no-idempotency",
    script: "ADMIT_LUA",
    description: "a retried admit places a second hold (skipped idempotency check)",
    find: "if redis.call('HEXISTS', KEYS[2], hold_id) == 1 then",
    replace: "if false then",
  },
  {
    id: "admit-balance-strict",
    script: "ADMIT_LUA",
    description: "an amount equal to the available balance is refused",
    find: "if sign_of(field('avail'), neg(amount), '0') < 0 then",
    replace: "if sign_of(field('avail'), neg(amount), '0') <= 0 then",
  },
  {
    id: "admit-key-limit-inclusive",
    script: "ADMIT_LUA",
    description: "a key's spend reaching its limit exactly is refused",
    find: "if sign_of(used, amount, key_limit) > 0 then",
    replace: "if sign_of(used, amount, key_limit) >= 0 then",
  },
  {
    id: "admit-key-refusal-mislabelled",
    script: "ADMIT_LUA",
    description: "a key-limit refusal is reported as the account's insufficient credits (swapped codes)",
    find: "return {'refused', 'quota_exceeded', 'key'}",
    replace: "return {'refused', 'insufficient_credits', 'account'}",
  },
  {
    id: "admit-rate-off-by-one",
    script: "ADMIT_LUA",
    description: "a rate window admits one request fewer than its limit",
    find: "if count + take > limit then",
    replace: "if count + take >= limit then",
  },
  {
    id: "admit-rate-counter-no-expiry",
    script: "ADMIT_LUA",
    description: "a rate counter never expires (dropped expiry: Redis memory grows per window)",
    find: "redis.call('PEXPIRE', rate[1], math.max(1, tonumber(rate[2]) - tonumber(now)) + 1000)",
    replace: "",
  },
  {
    id: "admit-upgrade-strict",
    script: "ADMIT_LUA",
    description: "purchases exactly at the upgrade threshold do not raise the limit",
    find: "sign_of(field('purchased'), '0', ARGV[base + 2]) >= 0",
    replace: "sign_of(field('purchased'), '0', ARGV[base + 2]) > 0",
  },
  {
    id: "admit-not-held",
    script: "ADMIT_LUA",
    description: "a hold is not added to the held total",
    find: "redis.call('HINCRBY', KEYS[1], 'held', amount)",
    replace: "",
  },
  {
    id: "admit-hold-no-expiry",
    script: "ADMIT_LUA",
    description: "a hold has no expiry: a crashed edge pins the budget forever",
    find: "redis.call('ZADD', KEYS[3], expires_at, hold_id)",
    replace: "",
  },
  {
    id: "admit-hold-not-in-key-window",
    script: "ADMIT_LUA",
    description: "a keyed hold is not mapped to its key window (settle/release do not move the key's spend)",
    find: "redis.call('HSET', KEYS[7], hold_id, key_window)",
    replace: "",
  },
  // LOAD_LUA
  {
    id: "load-accepts-older-snapshot",
    script: "LOAD_LUA",
    description: "an older snapshot overwrites a newer view",
    find: "if is_loaded() and not id_le(field('seq'), seq) then",
    replace: "if false then",
  },
  {
    id: "load-floor-not-raised",
    script: "LOAD_LUA",
    description: "rate counters are not raised to the ledger's count after a lost Redis",
    find: "if tonumber(redis.call('GET', KEYS[i]) or '0') < floor then",
    replace: "if false then",
  },
  {
    id: "load-floor-no-expiry",
    script: "LOAD_LUA",
    description: "a rate counter raised on load never expires (dropped expiry)",
    find: "redis.call('SET', KEYS[i], floor, 'PX', math.max(1, tonumber(ARGV[base + 1]) - tonumber(ARGV[3])) + 1000)",
    replace: "redis.call('SET', KEYS[i], floor)",
  },
  {
    id: "load-later-entries-lost",
    script: "LOAD_LUA",
    description: "entries applied after the snapshot are not re-added on a rebase",
    find: "redis.call('HINCRBY', KEYS[1], 'balance', applied[i + 1])",
    replace: "",
  },
  {
    id: "load-later-purchases-lost",
    script: "LOAD_LUA",
    description: "purchases applied after the snapshot are not re-added on a rebase",
    find: "redis.call('HINCRBY', KEYS[1], 'purchased', purchases[i + 1])",
    replace: "",
  },
  {
    id: "load-keeps-key-windows",
    script: "LOAD_LUA",
    description: "a rebase keeps the key windows, which then drift from the ledger",
    find: "redis.call('DEL', KEYS[6])",
    replace: "",
  },
  {
    id: "load-pending-not-subtracted",
    script: "LOAD_LUA",
    description: "a rebase forgets pending debits in the available balance (missing decrement)",
    find: "redis.call('HINCRBY', KEYS[1], 'avail', neg(field('pending')))",
    replace: "",
  },
  // LOAD_KEY_LUA
  {
    id: "load-key-older-than-view",
    script: "LOAD_KEY_LUA",
    description: "a key snapshot older than the view is installed",
    find: "if not id_le(field('seq'), seq) then return 'stale' end",
    replace: "",
  },
  {
    id: "load-key-misses-applied",
    script: "LOAD_KEY_LUA",
    description: "a key snapshot missing entries the view applied since is installed",
    find: "if not id_le(id, seq) then return 'stale' end",
    replace: "",
  },
  {
    id: "load-key-other-windows-holds",
    script: "LOAD_KEY_LUA",
    description: "holds in flight are counted in the wrong key windows",
    find: "if refs[i + 1] == win then",
    replace: "if refs[i + 1] ~= win then",
  },
  {
    id: "load-key-twice",
    script: "LOAD_KEY_LUA",
    description: "a loaded key window is loaded again over its live spend (skipped idempotency)",
    find: "if redis.call('HEXISTS', KEYS[6], 'u:' .. win) == 1 then return 'ignored' end",
    replace: "",
  },
  // SETTLE_LUA
  {
    id: "settle-drops-key-mapping",
    script: "SETTLE_LUA",
    description: "a settled cost is no longer counted in its key window",
    find: "if not drop_hold(hold_id, true) then",
    replace: "if not drop_hold(hold_id, false) then",
  },
  {
    id: "settle-avail-not-debited",
    script: "SETTLE_LUA",
    description: "a pending debit does not reduce the available balance",
    find: "redis.call('HINCRBY', KEYS[1], 'avail', neg(cost))",
    replace: "",
  },
  {
    id: "settle-missing-hold-settled",
    script: "SETTLE_LUA",
    description: "a settle without a hold reports settled (swapped return codes)",
    find: "then return 'no_hold' end",
    replace: "then return 'settled' end",
  },
  // RELEASE_LUA
  {
    id: "release-unknown-true",
    script: "RELEASE_LUA",
    description: "releasing an unknown hold reports a release",
    find: "if not drop_hold(ARGV[1], false) then return 0 end",
    replace: "if not drop_hold(ARGV[1], false) then return 1 end",
  },
  {
    id: "release-cold-true",
    script: "RELEASE_LUA",
    description: "releasing on an unloaded view reports a release",
    find: "if not is_loaded() then return 0 end",
    replace: "if not is_loaded() then return 1 end",
  },
  // APPLY_ENTRY: shared by APPLY_LUA and APPLY_BATCH_LUA.
  {
    id: "apply-no-idempotency",
    script: "APPLY_ENTRY",
    description: "a redelivered entry is applied again (skipped idempotency check)",
    find: "if id_le(entry_id, field('seq')) or redis.call('HEXISTS', K[5], entry_id) == 1 then",
    replace: "if id_le(entry_id, field('seq')) then",
  },
  {
    id: "apply-lease-debit-uncapped",
    script: "APPLY_ENTRY",
    description: "a lease debit larger than the lease's hold drives the hold negative",
    find: "local moved = min_of(cost, held)",
    replace: "local moved = cost",
  },
  {
    id: "apply-cold-entry-no-expiry",
    script: "APPLY_ENTRY",
    description: "an entry remembered for an unloaded view never expires (dropped expiry)",
    find: "redis.call('PEXPIRE', K[5], cold_ttl)",
    replace: "",
  },
  {
    id: "apply-window-start-exclusive",
    script: "APPLY_ENTRY",
    description: "spend created exactly at a key window's start is not counted in it",
    find: "tonumber(digits) <= created",
    replace: "tonumber(digits) < created",
  },
  {
    id: "apply-byok-inverted",
    script: "APPLY_ENTRY",
    description: "BYOK costs count in the windows that exclude them",
    find: "if with_byok == 'b' then",
    replace: "if with_byok ~= 'b' then",
  },
  {
    id: "apply-purchase-not-counted",
    script: "APPLY_ENTRY",
    description: "a live purchase does not raise the purchased total",
    find: "redis.call('HINCRBY', K[1], 'purchased', amount)",
    replace: "",
  },
  {
    id: "apply-lease-pending-strict",
    script: "APPLY_ENTRY",
    description: "a debit equal to a returned lease's pending debit leaves a zero pending entry",
    find: "if sign_of(cost, '0', pending) >= 0 then",
    replace: "if sign_of(cost, '0', pending) > 0 then",
  },
  {
    id: "apply-keeps-pending",
    script: "APPLY_ENTRY",
    description: "an entry does not drop the pending debit it replaces (counted twice)",
    find: "    drop_pending(ref)\n",
    replace: "",
  },
  {
    id: "apply-key-seq-ignored",
    script: "APPLY_ENTRY",
    description: "an entry the key window's snapshot already covers is counted in it again",
    find: "and not id_le(entry_id, seq) then",
    replace: "then",
  },
  // APPLY_LUA
  {
    id: "apply-one-drops-key-hash",
    script: "APPLY_LUA",
    description: "a single entry's key hash is not passed on: the key's spend never moves",
    find: "{ARGV[1], ARGV[2], ARGV[3], ARGV[6],",
    replace: "{ARGV[1], ARGV[2], ARGV[3], '',",
  },
  {
    id: "apply-one-cold-ttl-is-view-ttl",
    script: "APPLY_LUA",
    description: "a cold entry is remembered for the view's TTL instead of the cold-entry TTL (wrong expiry)",
    find: "}, ARGV[5])",
    replace: "}, ARGV[4])",
  },
  // APPLY_BATCH_LUA
  {
    id: "batch-wrong-account-keys",
    script: "APPLY_BATCH_LUA",
    description: "the batch reads another account's keys (wrong key)",
    find: "local base = (n - 1) * 8",
    replace: "local base = (n - 1) * 7",
  },
  {
    id: "batch-no-touch",
    script: "APPLY_BATCH_LUA",
    description: "a batch does not refresh the views it applied to (dropped TTL refresh)",
    find: "if result ~= 'cold' then touched[n] = true end",
    replace: "",
  },
  // RETURN_LEASE_LUA
  {
    id: "return-arrived-not-deducted",
    script: "RETURN_LEASE_LUA",
    description: "a returned lease keeps its already-applied debits pending (counted twice)",
    find: "redis.call('HINCRBY', KEYS[4], lease, neg(arrived))",
    replace: "",
  },
  {
    id: "return-pending-never-expires",
    script: "RETURN_LEASE_LUA",
    description: "a returned lease's pending debit never expires (dropped expiry)",
    find: "redis.call('ZADD', KEYS[3], expires, 'p:' .. lease)",
    replace: "",
  },
  {
    id: "return-no-purge",
    script: "RETURN_LEASE_LUA",
    description: "an expired lease can still be returned",
    find: "purge(ARGV[3])",
    replace: "",
  },
  {
    id: "return-zero-pending",
    script: "RETURN_LEASE_LUA",
    description: "a lease whose debits have all arrived keeps a zero pending debit",
    find: "if sign_of(spent, '0', arrived) > 0 then",
    replace: "if sign_of(spent, '0', arrived) >= 0 then",
  },
  // VIEW_LUA
  {
    id: "view-no-purge",
    script: "VIEW_LUA",
    description: "the view shows expired holds",
    find: "purge(ARGV[1])",
    replace: "",
  },
  {
    id: "view-held-pending-swapped",
    script: "VIEW_LUA",
    description: "the view reports held as pending and pending as held",
    find: "field('held'), field('pending')",
    replace: "field('pending'), field('held')",
  },
];

/** Where a script's template literal sits in lua.ts's source: [start, end) of its text. */
function scriptSpan(source: string, script: LuaScriptName): [number, number] {
  const opening = new RegExp(`(?:^|\\n)(?:export )?const ${script} = \``);
  const match = opening.exec(source);
  if (!match) throw new Error(`lua.ts has no script ${script}`);
  const start = match.index + match[0].length;
  const end = source.indexOf("`", start);
  if (end < 0) throw new Error(`lua.ts: ${script}'s template literal is not closed`);
  return [start, end];
}

/** lua.ts's source with the mutant applied; throws unless its text matches exactly once in its script. */
export function applyLuaMutant(source: string, mutant: LuaMutant): string {
  const [start, end] = scriptSpan(source, mutant.script);
  const text = source.slice(start, end);
  const at = text.indexOf(mutant.find);
  if (at < 0 || text.indexOf(mutant.find, at + 1) >= 0) {
    const times = at < 0 ? "nowhere" : "more than once";
    throw new Error(`Lua mutant ${mutant.id} is stale: its text matches ${times} in ${mutant.script}`);
  }
  const mutated = text.slice(0, at) + mutant.replace + text.slice(at + mutant.find.length);
  return source.slice(0, start) + mutated + source.slice(end);
}
