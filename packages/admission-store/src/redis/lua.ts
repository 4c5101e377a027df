/**
 * Lua for RedisAdmissionStore. Redis runs Lua 5.1, whose numbers are doubles: integers above 2^53
 * (≈ 9,007 USD in pico-dollars) lose precision. So no money is ever added in Lua: amounts stay
 * canonical decimal strings and all arithmetic is HINCRBY, which is exact int64 in Redis. A reply of
 * HINCRBY does pass through a double, which keeps its sign exactly, and the sign is all a check needs
 * (comparisons subtract in a scratch field and look at the sign). Ledger ids are compared as decimal
 * strings for the same reason. Times (ms) and request counts are far below 2^53 and are plain numbers.
 *
 * KEYS (one account, one hash slot `{acct:<id>}`; the helpers reach them as K, which the batch apply
 * points at each of its accounts in turn):
 *   1 view      HASH loaded, balance, seq, loadedAt, held, pending, avail (= balance − pending − held),
 *                    purchased
 *   2 holds     HASH holdId → amount
 *   3 expiry    ZSET holdId scored by expiry (ms); p:<leaseId> for a returned lease's pending debit
 *   4 pending   HASH ref → settled cost not yet in the ledger
 *   5 applied   HASH entryId → amount of entries applied on top of the snapshot
 *   6 keys      HASH u:<keyHash>@<windowStart> → the key's used spend in that window (ledger + holds +
 *                    pending), q:<keyHash>@<windowStart> → the ledger seq it was loaded at
 *   7 refkey    HASH holdId/ref → the key window (<keyHash>@<windowStart>) its amount is counted in;
 *                    la:<leaseId> → the lease's usage debits applied while its hold was active
 *   8 purchases HASH entryId → amount of purchases applied on top of the snapshot
 *   9… rate counters (admit only): one STRING per rate window, expiring at the window's end
 */
const HELPERS = `
-- The account's eight keys (see above); the batch apply points K at each account's in turn.
local K = KEYS
local function neg(s)
  if s == '0' then return '0' end
  if string.sub(s, 1, 1) == '-' then return string.sub(s, 2) end
  return '-' .. s
end
-- a <= b for canonical non-negative decimal strings of any length.
local function id_le(a, b)
  if #a ~= #b then return #a < #b end
  return a <= b
end
local function is_loaded() return redis.call('HGET', K[1], 'loaded') == '1' end
local function field(name) return redis.call('HGET', K[1], name) or '0' end
local function touch(ttl)
  for i = 1, 8 do redis.call('PEXPIRE', K[i], ttl) end
end
-- The sign of (a + b - c), exactly: int64 arithmetic in a scratch field.
local function sign_of(a, b, c)
  redis.call('HSET', K[6], '_cmp', a)
  redis.call('HINCRBY', K[6], '_cmp', b)
  local result = redis.call('HINCRBY', K[6], '_cmp', neg(c))
  redis.call('HDEL', K[6], '_cmp')
  if result > 0 then return 1 elseif result < 0 then return -1 end
  return 0
end
-- Moves the key window that ref is counted in by delta (a decimal string), if that window is loaded.
local function key_add(ref, delta)
  local win = redis.call('HGET', K[7], ref)
  if win and redis.call('HEXISTS', K[6], 'u:' .. win) == 1 then
    redis.call('HINCRBY', K[6], 'u:' .. win, delta)
  end
end
-- keep_ref: the amount moves on to a pending debit (settle), so its key window mapping stays.
local function drop_hold(id, keep_ref)
  local amount = redis.call('HGET', K[2], id)
  redis.call('ZREM', K[3], id)
  if not amount then return false end
  redis.call('HDEL', K[2], id)
  redis.call('HINCRBY', K[1], 'held', neg(amount))
  redis.call('HINCRBY', K[1], 'avail', amount)
  key_add(id, neg(amount))
  if not keep_ref then redis.call('HDEL', K[7], id, 'la:' .. id) end
  return true
end
local function drop_pending(ref)
  local cost = redis.call('HGET', K[4], ref)
  if not cost then return end
  redis.call('HDEL', K[4], ref)
  redis.call('HINCRBY', K[1], 'pending', neg(cost))
  redis.call('HINCRBY', K[1], 'avail', cost)
  key_add(ref, neg(cost))
  redis.call('HDEL', K[7], ref, 'la:' .. ref)
  redis.call('ZREM', K[3], 'p:' .. ref)
end
-- Bounded so one admit never runs long; leftovers stay held (the safe side) until the next call.
-- A p:<leaseId> member that is not itself a hold is the expiry of a returned lease's pending debit.
local function purge(now)
  local expired = redis.call('ZRANGEBYSCORE', K[3], '-inf', now, 'LIMIT', 0, 500)
  for _, id in ipairs(expired) do
    if string.sub(id, 1, 2) == 'p:' and redis.call('HEXISTS', K[2], id) == 0 then
      redis.call('ZREM', K[3], id)
      drop_pending(string.sub(id, 3))
    else
      drop_hold(id, false)
    end
  end
end
-- The smaller of two non-negative decimal strings.
local function min_of(a, b)
  if sign_of(a, '0', b) <= 0 then return a end
  return b
end
`;

/**
 * ARGV: holdId, amount, expiresAt, now, viewTtlMs, maxViewAgeMs, keyWindow ('' = no key limit),
 * keyLimit, then per rate counter KEYS[9 + i]: limit, upgradeLimit ('' = none), upgradeMinPurchased,
 * windowEndMs, take (requests counted at once). Checks run before anything changes, so a refusal
 * leaves no trace.
 * → {'admitted', expiresAt} | {'cold'} | {'cold_key'} | {'refused', reason, source}
 *   | {'rate_limited', rateIndex (1-based), limit}
 */
export const ADMIT_LUA = `${HELPERS}
local hold_id, amount, expires_at, now = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local key_window, key_limit = ARGV[7], ARGV[8]
if not is_loaded() then return {'cold'} end
if tonumber(now) - tonumber(field('loadedAt')) >= tonumber(ARGV[6]) then return {'cold'} end
purge(now)
if redis.call('HEXISTS', KEYS[2], hold_id) == 1 then
  return {'admitted', redis.call('ZSCORE', KEYS[3], hold_id)}
end
if key_window ~= '' and redis.call('HEXISTS', KEYS[6], 'u:' .. key_window) == 0 then
  touch(ARGV[5])
  return {'cold_key'}
end
touch(ARGV[5])
-- A negative balance refuses everything, free requests included; otherwise the hold must fit.
if sign_of(field('avail'), neg(amount), '0') < 0 then
  return {'refused', 'insufficient_credits', 'account'}
end
if key_window ~= '' then
  local used = redis.call('HGET', KEYS[6], 'u:' .. key_window)
  if sign_of(used, amount, key_limit) > 0 then return {'refused', 'quota_exceeded', 'key'} end
end
local rates = {}
for i = 9, #KEYS do
  local base = 9 + (i - 9) * 5
  local limit = tonumber(ARGV[base])
  if ARGV[base + 1] ~= '' and sign_of(field('purchased'), '0', ARGV[base + 2]) >= 0 then
    limit = tonumber(ARGV[base + 1])
  end
  local count = tonumber(redis.call('GET', KEYS[i]) or '0')
  local take = tonumber(ARGV[base + 4])
  if count + take > limit then return {'rate_limited', tostring(i - 8), tostring(limit)} end
  rates[#rates + 1] = {KEYS[i], ARGV[base + 3], take}
end
-- Relative expiry: callers' clocks (tests pin them) need not agree with the Redis server's.
for _, rate in ipairs(rates) do
  redis.call('INCRBY', rate[1], rate[3])
  redis.call('PEXPIRE', rate[1], math.max(1, tonumber(rate[2]) - tonumber(now)) + 1000)
end
redis.call('HINCRBY', KEYS[1], 'avail', neg(amount))
redis.call('HSET', KEYS[2], hold_id, amount)
redis.call('ZADD', KEYS[3], expires_at, hold_id)
redis.call('HINCRBY', KEYS[1], 'held', amount)
if key_window ~= '' then
  redis.call('HSET', KEYS[7], hold_id, key_window)
  redis.call('HINCRBY', KEYS[6], 'u:' .. key_window, amount)
end
touch(ARGV[5])
return {'admitted', expires_at}
`;

/**
 * ARGV: balance, seq, now, viewTtlMs, purchased, then per rate counter KEYS[9 + i]: floor, windowEndMs
 * → 'loaded' | 'ignored'. A rebase drops the key windows too: each reloads from the ledger on its next
 * admit, which bounds their drift the same way. Counters below the ledger's count are raised to it.
 */
export const LOAD_LUA = `${HELPERS}
local balance, seq = ARGV[1], ARGV[2]
for i = 9, #KEYS do
  local base = 6 + (i - 9) * 2
  local floor = tonumber(ARGV[base])
  if tonumber(redis.call('GET', KEYS[i]) or '0') < floor then
    redis.call('SET', KEYS[i], floor, 'PX', math.max(1, tonumber(ARGV[base + 1]) - tonumber(ARGV[3])) + 1000)
  end
end
if is_loaded() and not id_le(field('seq'), seq) then
  touch(ARGV[4])
  return 'ignored'
end
redis.call('HSET', KEYS[1], 'loaded', '1', 'balance', balance, 'seq', seq, 'loadedAt', ARGV[3],
  'purchased', ARGV[5])
local applied = redis.call('HGETALL', KEYS[5])
for i = 1, #applied, 2 do
  if id_le(applied[i], seq) then
    redis.call('HDEL', KEYS[5], applied[i])
  else
    redis.call('HINCRBY', KEYS[1], 'balance', applied[i + 1])
  end
end
local purchases = redis.call('HGETALL', KEYS[8])
for i = 1, #purchases, 2 do
  if id_le(purchases[i], seq) then
    redis.call('HDEL', KEYS[8], purchases[i])
  else
    redis.call('HINCRBY', KEYS[1], 'purchased', purchases[i + 1])
  end
end
redis.call('DEL', KEYS[6])
redis.call('HSET', KEYS[1], 'avail', field('balance'))
redis.call('HINCRBY', KEYS[1], 'avail', neg(field('held')))
redis.call('HINCRBY', KEYS[1], 'avail', neg(field('pending')))
touch(ARGV[4])
return 'loaded'
`;

/** ARGV: keyWindow, spent, seq, viewTtlMs → 'loaded' | 'ignored' | 'stale' | 'cold' */
export const LOAD_KEY_LUA = `${HELPERS}
local win, spent, seq = ARGV[1], ARGV[2], ARGV[3]
if not is_loaded() then return 'cold' end
if redis.call('HEXISTS', KEYS[6], 'u:' .. win) == 1 then return 'ignored' end
-- Entries the view holds beyond the snapshot would be missing from it: read the ledger again.
if not id_le(field('seq'), seq) then return 'stale' end
local applied = redis.call('HKEYS', KEYS[5])
for _, id in ipairs(applied) do
  if not id_le(id, seq) then return 'stale' end
end
redis.call('HSET', KEYS[6], 'u:' .. win, spent, 'q:' .. win, seq)
local refs = redis.call('HGETALL', KEYS[7])
for i = 1, #refs, 2 do
  if refs[i + 1] == win then
    local amount = redis.call('HGET', KEYS[2], refs[i]) or redis.call('HGET', KEYS[4], refs[i])
    if amount then redis.call('HINCRBY', KEYS[6], 'u:' .. win, amount) end
  end
end
touch(ARGV[4])
return 'loaded'
`;

/** ARGV: holdId, cost, viewTtlMs → 'settled' | 'no_hold' | 'cold' */
export const SETTLE_LUA = `${HELPERS}
local hold_id, cost = ARGV[1], ARGV[2]
if not is_loaded() then return 'cold' end
if not drop_hold(hold_id, true) then return 'no_hold' end
redis.call('HSET', KEYS[4], hold_id, cost)
redis.call('HINCRBY', KEYS[1], 'pending', cost)
redis.call('HINCRBY', KEYS[1], 'avail', neg(cost))
key_add(hold_id, cost)
touch(ARGV[3])
return 'settled'
`;

/** ARGV: holdId, viewTtlMs → 1 | 0 */
export const RELEASE_LUA = `${HELPERS}
if not is_loaded() then return 0 end
if not drop_hold(ARGV[1], false) then return 0 end
touch(ARGV[2])
return 1
`;

/**
 * One ledger entry on the account K points at, without refreshing the view's TTL (the caller touches
 * each loaded account once) → ApplyResult. A newly applied debit of a lease is in the balance now: its
 * cost leaves the lease's hold (the hold stays, possibly at 0, until the lease is returned) or, once
 * returned, the lease's pending debit.
 */
const APPLY_ENTRY = `
local function move_lease(lease, cost)
  local held = redis.call('HGET', K[2], lease)
  if held then
    local moved = min_of(cost, held)
    redis.call('HINCRBY', K[2], lease, neg(moved))
    redis.call('HINCRBY', K[1], 'held', neg(moved))
    redis.call('HINCRBY', K[1], 'avail', moved)
    key_add(lease, neg(moved))
    -- The whole debit counts as arrived: ReturnLease keeps only spent − arrived pending.
    redis.call('HINCRBY', K[7], 'la:' .. lease, cost)
    return
  end
  local pending = redis.call('HGET', K[4], lease)
  if not pending then return end
  if sign_of(cost, '0', pending) >= 0 then
    drop_pending(lease)
    return
  end
  redis.call('HINCRBY', K[4], lease, neg(cost))
  redis.call('HINCRBY', K[1], 'pending', neg(cost))
  redis.call('HINCRBY', K[1], 'avail', cost)
  key_add(lease, neg(cost))
end
local function count_in_key_windows(entry_id, amount, key_hash, created, byok)
  -- Usage is negative in the ledger and positive as a key's spend.
  local prefix = 'u:' .. key_hash .. '@'
  for _, name in ipairs(redis.call('HKEYS', K[6])) do
    if string.sub(name, 1, #prefix) == prefix then
      local win = string.sub(name, 3)
      local digits, with_byok = string.match(string.sub(name, #prefix + 1), '^(%d+)(b?)$')
      local seq = redis.call('HGET', K[6], 'q:' .. win) or '0'
      if digits and tonumber(digits) <= created and not id_le(entry_id, seq) then
        redis.call('HINCRBY', K[6], name, neg(amount))
        if with_byok == 'b' then redis.call('HINCRBY', K[6], name, byok) end
      end
    end
  end
end
-- e: entry_id, amount, ref ('' = none), key_hash ('' = none), created (ms), purchase ('1' | '0'),
-- byok, lease ('' = none); cold_ttl: how long an entry applied to an unloaded view is remembered.
local function apply_entry(e, cold_ttl)
  local entry_id, amount, ref, key_hash, purchase = e[1], e[2], e[3], e[4], e[6] == '1'
  if not is_loaded() then
    -- Remembered so that a load whose snapshot was read before this entry committed still counts it.
    redis.call('HSET', K[5], entry_id, amount)
    redis.call('PEXPIRE', K[5], cold_ttl)
    if purchase then
      redis.call('HSET', K[8], entry_id, amount)
      redis.call('PEXPIRE', K[8], cold_ttl)
    end
    return 'cold'
  end
  if ref ~= '' then
    drop_pending(ref)
    drop_hold(ref, false)
  end
  if id_le(entry_id, field('seq')) or redis.call('HEXISTS', K[5], entry_id) == 1 then
    return 'included'
  end
  redis.call('HSET', K[5], entry_id, amount)
  redis.call('HINCRBY', K[1], 'balance', amount)
  redis.call('HINCRBY', K[1], 'avail', amount)
  if purchase then
    redis.call('HSET', K[8], entry_id, amount)
    redis.call('HINCRBY', K[1], 'purchased', amount)
  end
  if e[8] ~= '' and string.sub(amount, 1, 1) == '-' then move_lease(e[8], neg(amount)) end
  if key_hash ~= '' then count_in_key_windows(entry_id, amount, key_hash, tonumber(e[5]), e[7]) end
  return 'applied'
end
`;

/**
 * ARGV: entryId, amount, pendingRef ('' = none), viewTtlMs, coldEntryTtlMs, keyHash ('' = none),
 * createdAtMs, isPurchase ('1' | '0'), byokCost, leaseRef ('' = none) → ApplyResult
 */
export const APPLY_LUA = `${HELPERS}${APPLY_ENTRY}
local result = apply_entry({ARGV[1], ARGV[2], ARGV[3], ARGV[6], ARGV[7], ARGV[8], ARGV[9], ARGV[10]}, ARGV[5])
if result ~= 'cold' then touch(ARGV[4]) end
return result
`;

/** Fields per entry in APPLY_BATCH_LUA's ARGV. */
export const BATCH_ENTRY_FIELDS = 9;

/**
 * Many accounts' ledger entries in one call. KEYS: each account's eight keys, account after account.
 * ARGV: viewTtlMs, coldEntryTtlMs, then per entry BATCH_ENTRY_FIELDS values: account number (1-based,
 * its keys are KEYS[8(n−1)+1 … 8n]), then the entry as apply_entry takes it. Entries run in ARGV order,
 * each exactly as APPLY_LUA would run it; every loaded account's TTL is refreshed once at the end.
 * → {ApplyResult, …} in ARGV order
 */
export const APPLY_BATCH_LUA = `${HELPERS}${APPLY_ENTRY}
local accounts, touched, results = {}, {}, {}
for i = 3, #ARGV, ${BATCH_ENTRY_FIELDS} do
  local n = tonumber(ARGV[i])
  if not accounts[n] then
    local base = (n - 1) * 8
    accounts[n] = {KEYS[base + 1], KEYS[base + 2], KEYS[base + 3], KEYS[base + 4], KEYS[base + 5],
      KEYS[base + 6], KEYS[base + 7], KEYS[base + 8]}
  end
  K = accounts[n]
  local result = apply_entry({ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4], ARGV[i + 5], ARGV[i + 6],
    ARGV[i + 7], ARGV[i + 8]}, ARGV[2])
  if result ~= 'cold' then touched[n] = true end
  results[#results + 1] = result
end
for n in pairs(touched) do
  K = accounts[n]
  touch(ARGV[1])
end
return results
`;

/**
 * ARGV: leaseId, spent, now, viewTtlMs → 'returned' | 'no_lease' | 'cold'. The hold goes; what the
 * lease spent beyond its debits applied so far becomes its pending debit, expiring with the hold.
 */
export const RETURN_LEASE_LUA = `${HELPERS}
local lease, spent = ARGV[1], ARGV[2]
if not is_loaded() then return 'cold' end
purge(ARGV[3])
if redis.call('HEXISTS', KEYS[2], lease) == 0 then return 'no_lease' end
local expires = redis.call('ZSCORE', KEYS[3], lease)
local arrived = redis.call('HGET', KEYS[7], 'la:' .. lease) or '0'
drop_hold(lease, true)
redis.call('HDEL', KEYS[7], 'la:' .. lease)
if sign_of(spent, '0', arrived) > 0 then
  redis.call('HSET', KEYS[4], lease, spent)
  redis.call('HINCRBY', KEYS[4], lease, neg(arrived))
  local unapplied = redis.call('HGET', KEYS[4], lease)
  redis.call('HINCRBY', KEYS[1], 'pending', unapplied)
  redis.call('HINCRBY', KEYS[1], 'avail', neg(unapplied))
  key_add(lease, unapplied)
  redis.call('ZADD', KEYS[3], expires, 'p:' .. lease)
else
  redis.call('HDEL', KEYS[7], lease)
end
touch(ARGV[4])
return 'returned'
`;

/**
 * ARGV: now → false | {balance, seq, held, pending, avail, loadedAt, purchased, holds[], pending[],
 * keys[]}
 */
export const VIEW_LUA = `${HELPERS}
if not is_loaded() then return false end
purge(ARGV[1])
return {
  field('balance'), field('seq'), field('held'), field('pending'), field('avail'), field('loadedAt'),
  field('purchased'), redis.call('HGETALL', KEYS[2]), redis.call('HGETALL', KEYS[4]),
  redis.call('HGETALL', KEYS[6])
}
`;
