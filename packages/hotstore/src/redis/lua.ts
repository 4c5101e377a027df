/**
 * Lua for RedisAdmissionStore. Redis runs Lua 5.1, whose numbers are doubles: integers above 2^53
 * (≈ 9,007 USD in pico-dollars) lose precision. So no money is ever added in Lua: amounts stay
 * canonical decimal strings and all arithmetic is HINCRBY, which is exact int64 in Redis. A reply of
 * HINCRBY does pass through a double, which keeps its sign exactly, and the sign is all a check needs.
 * Ledger ids are compared as decimal strings for the same reason.
 *
 * KEYS (one account, one hash slot `{acct:<id>}`):
 *   1 view    HASH loaded, balance, seq, loadedAt, held, pending, avail (= balance − pending − held)
 *   2 holds   HASH holdId → amount
 *   3 expiry  ZSET holdId scored by expiry (ms)
 *   4 pending HASH ref → settled cost not yet in the ledger
 *   5 applied HASH entryId → amount of entries applied on top of the snapshot
 */
const HELPERS = `
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
local function is_loaded() return redis.call('HGET', KEYS[1], 'loaded') == '1' end
local function field(name) return redis.call('HGET', KEYS[1], name) or '0' end
local function touch(ttl)
  for i = 1, #KEYS do redis.call('PEXPIRE', KEYS[i], ttl) end
end
local function drop_hold(id)
  local amount = redis.call('HGET', KEYS[2], id)
  redis.call('ZREM', KEYS[3], id)
  if not amount then return false end
  redis.call('HDEL', KEYS[2], id)
  redis.call('HINCRBY', KEYS[1], 'held', neg(amount))
  redis.call('HINCRBY', KEYS[1], 'avail', amount)
  return true
end
local function drop_pending(ref)
  local cost = redis.call('HGET', KEYS[4], ref)
  if not cost then return end
  redis.call('HDEL', KEYS[4], ref)
  redis.call('HINCRBY', KEYS[1], 'pending', neg(cost))
  redis.call('HINCRBY', KEYS[1], 'avail', cost)
end
-- Bounded so one admit never runs long; leftovers stay held (the safe side) until the next call.
local function purge(now)
  local expired = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now, 'LIMIT', 0, 500)
  for _, id in ipairs(expired) do drop_hold(id) end
end
`;

/** ARGV: holdId, amount, expiresAt, now, viewTtlMs, maxViewAgeMs → {status, expiresAt?} */
export const ADMIT_LUA = `${HELPERS}
local hold_id, amount, expires_at, now = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
if not is_loaded() then return {'cold'} end
if tonumber(now) - tonumber(field('loadedAt')) >= tonumber(ARGV[6]) then return {'cold'} end
purge(now)
if redis.call('HEXISTS', KEYS[2], hold_id) == 1 then
  return {'admitted', redis.call('ZSCORE', KEYS[3], hold_id)}
end
local after = redis.call('HINCRBY', KEYS[1], 'avail', neg(amount))
if after < 0 or (after == 0 and amount == '0') then
  redis.call('HINCRBY', KEYS[1], 'avail', amount)
  touch(ARGV[5])
  return {'refused', 'insufficient_credits', 'account'}
end
redis.call('HSET', KEYS[2], hold_id, amount)
redis.call('ZADD', KEYS[3], expires_at, hold_id)
redis.call('HINCRBY', KEYS[1], 'held', amount)
touch(ARGV[5])
return {'admitted', expires_at}
`;

/** ARGV: balance, seq, now, viewTtlMs → 'loaded' | 'ignored' */
export const LOAD_LUA = `${HELPERS}
local balance, seq = ARGV[1], ARGV[2]
if is_loaded() and not id_le(field('seq'), seq) then
  touch(ARGV[4])
  return 'ignored'
end
redis.call('HSET', KEYS[1], 'loaded', '1', 'balance', balance, 'seq', seq, 'loadedAt', ARGV[3])
local applied = redis.call('HGETALL', KEYS[5])
for i = 1, #applied, 2 do
  if id_le(applied[i], seq) then
    redis.call('HDEL', KEYS[5], applied[i])
  else
    redis.call('HINCRBY', KEYS[1], 'balance', applied[i + 1])
  end
end
redis.call('HSET', KEYS[1], 'avail', field('balance'))
redis.call('HINCRBY', KEYS[1], 'avail', neg(field('held')))
redis.call('HINCRBY', KEYS[1], 'avail', neg(field('pending')))
touch(ARGV[4])
return 'loaded'
`;

/** ARGV: holdId, cost, viewTtlMs → 'settled' | 'no_hold' | 'cold' */
export const SETTLE_LUA = `${HELPERS}
local hold_id, cost = ARGV[1], ARGV[2]
if not is_loaded() then return 'cold' end
if not drop_hold(hold_id) then return 'no_hold' end
redis.call('HSET', KEYS[4], hold_id, cost)
redis.call('HINCRBY', KEYS[1], 'pending', cost)
redis.call('HINCRBY', KEYS[1], 'avail', neg(cost))
touch(ARGV[3])
return 'settled'
`;

/** ARGV: holdId, viewTtlMs → 1 | 0 */
export const RELEASE_LUA = `${HELPERS}
if not is_loaded() then return 0 end
if not drop_hold(ARGV[1]) then return 0 end
touch(ARGV[2])
return 1
`;

/** ARGV: entryId, amount, pendingRef ('' = none), viewTtlMs, coldEntryTtlMs → ApplyResult */
export const APPLY_LUA = `${HELPERS}
local entry_id, amount, ref = ARGV[1], ARGV[2], ARGV[3]
if not is_loaded() then
  -- Remembered so that a load whose snapshot was read before this entry committed still counts it.
  redis.call('HSET', KEYS[5], entry_id, amount)
  redis.call('PEXPIRE', KEYS[5], ARGV[5])
  return 'cold'
end
if ref ~= '' then
  drop_pending(ref)
  drop_hold(ref)
end
touch(ARGV[4])
if id_le(entry_id, field('seq')) or redis.call('HEXISTS', KEYS[5], entry_id) == 1 then
  return 'included'
end
redis.call('HSET', KEYS[5], entry_id, amount)
redis.call('HINCRBY', KEYS[1], 'balance', amount)
redis.call('HINCRBY', KEYS[1], 'avail', amount)
touch(ARGV[4])
return 'applied'
`;

/** ARGV: now → false | {balance, seq, held, pending, avail, loadedAt, holds[], pending[]} */
export const VIEW_LUA = `${HELPERS}
if not is_loaded() then return false end
purge(ARGV[1])
return {
  field('balance'), field('seq'), field('held'), field('pending'), field('avail'), field('loadedAt'),
  redis.call('HGETALL', KEYS[2]), redis.call('HGETALL', KEYS[4])
}
`;
