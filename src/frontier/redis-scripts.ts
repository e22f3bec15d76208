import type { Redis } from 'ioredis';
import { HELPERS, PREAMBLE, TRACE_PREAMBLE } from './redis-script-library.js';

/**
 * The Lua scripts of the Redis frontier (../shared/SCALE.md). Each runs atomically on one shard:
 * KEYS[1] is the shard's counters hash `<prefix>:{s}:n`, and every other key is derived from it,
 * so all of them share the `{s}` hash tag (Redis asks scripts to declare their keys; deriving them
 * is safe on Cluster only because of that tag, which the tests check command by command).
 *
 * Layout of a shard (B = `<prefix>:{s}:`; key = the URL's fingerprint as 8 bytes, id = its
 * discovery number as 4 big-endian bytes; redis-request-codec.ts has the value encoding):
 *   B q:<host>  ZSET  member id .. key (12 bytes), score -priority: equal priorities come out in
 *                     discovery order because members compare byte-wise, id first
 *   B u:<b>     HASH  the carried state: value id .. A .. R, where A (url, attempts, probe, sitemap,
 *                     redirected) is kept by a raise and R (depth, parent, anchor, data) is replaced.
 *                     b is the key's top 18 bits modulo the state buckets per shard (four per seen
 *                     bucket), so a bucket holds about 64 waiting URLs at the seen set's design
 *                     size and stays a listpack: a few bytes an entry instead of about 100 in a
 *                     hashtable. A listpack takes no field or value over 64 bytes
 *                     (hash-max-listpack-value), so a value is cut in pieces: field key -> a count
 *                     byte and the first 63 bytes, fields key .. byte(i) -> the next 64 each
 *   B ul        HASH  key -> the whole value when it needs more than 16 pieces (about 1 KB); its
 *                     u:<b> field then holds the count 0
 *   B h:<host>  HASH  f in flight, t fetches against the budget (in flight, and ended after a request), n next allowed ms, d Crawl-delay, rm ready member
 *   B wait      ZSET  host -> next allowed ms
 *   B ready     ZSET  id .. host -> -(head priority): ties between hosts by head discovery
 *   B lease     ZSET  key -> lease expiry ms;  B lh HASH key -> id .. "score worker host"
 *   B hosts     SET   hosts with waiting URLs (rescore and budget changes walk it, never claim)
 *   B seen:<b>  SET   intset of fingerprints (see redis-keys.ts seenPlace)
 *   B deep:<b>  SET   the seen members discarded revivably (too deep, or by the strategy), which add revives (frontier.ts isRevivable)
 *   B n         HASH  counters: waiting fetching done error discarded seen, and unfetched
 *                     (of error, the URLs that made no request: no page budget counts them)
 *   B seq, B cfg      discovery order (INCR); settings shared by all workers (budget: the
 *                     per-host page budget; pages: the crawl's page budget, see CLAIM)
 *   B workers   ZSET  worker name -> when it last reaped (its heartbeat; shard 0 only, a day kept)
 *   B rd        SET   keys a reap put back to waiting, until their URL is final (a retry or
 *                     release keeps them): each claim says so (RedisFrontier journals such a
 *                     page's links in full)
 *
 * Ids wrap after 2^32 admissions in a shard; a wrapped id only orders equal priorities
 * differently (it is no identity), so nothing is lost.
 *
 * Invariant kept by place(): a host is in `wait` or `ready` exactly when it has waiting URLs, fewer
 * than perHost in flight and is under the budget; `ready` when its delay is over. A host at its
 * in-flight limit leaves both heaps and returns when a lease ends.
 */

/**
 * ARGV: perHost, mode (0 add, 1 discard, 2 discard revivably: too deep or by the strategy, 3 discard that takes the place of
 * a revivable one: frontier.ts takesRevivable), state buckets per shard, then
 * per URL: host, key, bucket, seen member, score, A, R, now (the offers of several pages go in
 * one call: ScriptBatcher).
 * Returns per URL: 1 new, 6 revived (it had been discarded revivably; mode 3: discarded for good now), 0 waiting and not
 * raised, 2 raised, 3 leased, 4 final (done, error, discarded), 5 discarded revivably (offered again
 * as a discard: still revivable by an add). The SADD decides: a URL is queued
 * only when it was not in the seen set, in the same script, so nothing is ever seen but not queued.
 */
const ADD = `
local perHost = tonumber(ARGV[1])
local discard = ARGV[2] ~= '0'
local deep = ARGV[2] == '2'
local takes = ARGV[2] == '3'
local nb = tonumber(ARGV[3])
local out, order, touched = {}, {}, {}
local fresh, queued, discarded = 0, 0, 0
local at = {}
local seq0 = num(call('GET', B .. 'seq'), 0)
local seq = seq0
for i = 4, #ARGV, 8 do
  local host, fp, bucket, member, score, a, r = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4], ARGV[i + 5], ARGV[i + 6]
  local now = tonumber(ARGV[i + 7])
  local q = B .. 'q:' .. host
  local new = call('SADD', B .. 'seen:' .. bucket, member) == 1
  local v = (not new) and getU(fp, nb)
  local revive = (not new) and (not v) and ((not discard) or takes) and call('SREM', B .. 'deep:' .. bucket, member) == 1
  if new or revive then
    if new then fresh = fresh + 1 end
    if revive then discarded = discarded - 1 end
    if discard then
      discarded = discarded + 1
      if deep then call('SADD', B .. 'deep:' .. bucket, member) end
    else
      seq = seq + 1
      local id = be4(seq % 4294967296)
      call('ZADD', q, score, id .. fp)
      setU(fp, nb, id .. a .. r, nil)
      queued = queued + 1
      if not touched[host] then touched[host] = {}; order[#order + 1] = host end
      touched[host][id .. fp] = true
      at[host] = now
    end
    if revive then out[#out + 1] = 6 else out[#out + 1] = 1 end
  else
    if not v then
      -- Discarded as too deep stays revivable, whatever other discard offers it again: 5, which no
      -- worker's cache takes for final.
      if discard and call('SISMEMBER', B .. 'deep:' .. bucket, member) == 1 then out[#out + 1] = 5 else out[#out + 1] = 4 end
    else
      local m = string.sub(v, 1, 4) .. fp
      local old = call('ZSCORE', q, m)
      if not old then
        out[#out + 1] = 3
      elseif (not discard) and tonumber(score) < tonumber(old) then
        call('ZADD', q, score, m)
        local e = endOfA(v)
        setU(fp, nb, string.sub(v, 1, e) .. shallower(r, string.sub(v, e + 1)), v)
        if not touched[host] then touched[host] = {}; order[#order + 1] = host end
        touched[host][m] = true
        at[host] = now
        out[#out + 1] = 2
      else
        out[#out + 1] = 0
      end
    end
  end
end
if seq ~= seq0 then call('SET', B .. 'seq', seq) end
if fresh > 0 then call('HINCRBY', B .. 'n', 'seen', fresh) end
if queued > 0 then call('HINCRBY', B .. 'n', 'waiting', queued) end
if discarded ~= 0 then call('HINCRBY', B .. 'n', 'discarded', discarded) end
-- A host's place depends on its queue only through the head: when the head is none of the URLs
-- this call added or raised, the queue had waiting URLs before (so the host is in \`hosts\`) and
-- its place is unchanged. Most links of a page are to hosts that already wait.
local bud = false
for _, host in ipairs(order) do
  local head = call('ZRANGE', B .. 'q:' .. host, 0, 0)
  if head[1] and touched[host][head[1]] then
    if bud == false then bud = budget() end
    call('SADD', B .. 'hosts', host)
    place(host, at[host], perHost, bud)
  end
end
return out
`;

/**
 * ARGV: now, max, lease expiry, perHost, delay, promote (hosts moved from wait at most), worker,
 * state buckets per shard.
 * Returns key, host, score, u value for each URL leased, flat; when fewer than max, one more
 * element: the time the next host in wait opens ('' when none waits), a space, and the shard's
 * URLs in flight, and ' b' when the page budget (cfg pages) cut the claim short.
 * The page budget holds across workers here, where every claim is serialised: a URL is leased
 * only while fetched (done + error, less the errors that made no request) + leased < pages.
 */
const CLAIM = `
local now = tonumber(ARGV[1])
local want = tonumber(ARGV[2])
local max = want
local expiry = ARGV[3]
local perHost = tonumber(ARGV[4])
local delay = tonumber(ARGV[5])
local worker = ARGV[7]
local nb = tonumber(ARGV[8])
local cfg = call('HMGET', B .. 'cfg', 'budget', 'pages')
local bud = num(cfg[1], nil)
local capped = false
if cfg[2] then
  local c = call('HMGET', B .. 'n', 'done', 'error', 'fetching', 'unfetched')
  local room = tonumber(cfg[2]) - num(c[1], 0) - (num(c[2], 0) - num(c[4], 0)) - num(c[3], 0)
  if room < max then
    max = math.max(room, 0)
    capped = true
  end
end
local due = call('ZRANGEBYSCORE', B .. 'wait', '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[6]))
for _, host in ipairs(due) do place(host, now, perHost, bud) end
local out = {}
local n = 0
while n < max do
  local top = call('ZPOPMIN', B .. 'ready')
  if #top == 0 then break end
  local host = string.sub(top[1], 5)
  local hk = B .. 'h:' .. host
  -- Popped from ready, so in neither heap now; its rm field names the member just popped.
  local st = call('HMGET', hk, 'f', 't', 'n', 'd')
  local f, t, nx = num(st[1], 0), num(st[2], 0), num(st[3], 0)
  local sets = {}
  local q = B .. 'q:' .. host
  local head = call('ZPOPMIN', q)
  if #head > 0 then
    local fp = string.sub(head[1], 5)
    call('ZADD', B .. 'lease', expiry, fp)
    call('HSET', B .. 'lh', fp, string.sub(head[1], 1, 4) .. head[2] .. ' ' .. worker .. ' ' .. host)
    f, t = f + 1, t + 1
    local d = num(st[4], 0)
    if d < delay then d = delay end
    nx = now + d
    sets = { 'f', f, 't', t, 'n', nx }
    n = n + 1
    out[#out + 1] = fp
    out[#out + 1] = host
    out[#out + 1] = head[2]
    out[#out + 1] = getU(fp, nb) or ''
    out[#out + 1] = call('SISMEMBER', B .. 'rd', fp) == 1 and '1' or ''
  end
  if not placeKnown(host, hk, now, perHost, bud, f, t, nx, false, true, false, sets) then call('SREM', B .. 'hosts', host) end
end
if n > 0 then
  call('HINCRBY', B .. 'n', 'waiting', -n)
  call('HINCRBY', B .. 'n', 'fetching', n)
end
-- Fewer than asked: ready is empty; the next host to open is the head of wait ('' if none) and,
-- with the URLs in flight, that is what the caller would otherwise ask in round trips of its own
-- (nextReadyAt, isFinished), read here in the same atomic step.
if n < want then
  local w = call('ZRANGE', B .. 'wait', 0, 0, 'WITHSCORES')
  out[#out + 1] = (w[2] or '') .. ' ' .. (call('HGET', B .. 'n', 'fetching') or '0') .. ((capped and n >= max) and ' b' or '')
end
return out
`;

/**
 * Ends leases, several in one call (the ends a worker makes together: ScriptBatcher). ARGV: worker, perHost, delay, state buckets per shard,
 * then per URL: key, outcome (done, error, discarded, unfetched: final, the last an error that made no request; retry: waiting with the new A;
 * release: waiting as it was; fetched: the lease stays, but its host's slot is freed and its delay
 * starts now), now, notBefore, new A, host.
 * Only the lease holder ends a lease: a worker whose lease expired and was reaped changes nothing,
 * but for a final outcome of a URL the reap put back to waiting and no worker has claimed since:
 * that URL ends there (with its count in the host's budget, which the reap gave back), rather
 * than wait to be fetched a second time. Returns per URL 1 when ended, 2 when ended after its lease
 * was reaped, 0 when not held (another worker holds it now, or it ended otherwise).
 * A lease whose slot was freed does not free it again when it ends (or is reaped); a notBefore
 * still holds the host.
 */
const END = `
local worker = ARGV[1]
local perHost, delay, nb = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local bud = budget()
local out = {}
local fetching, tally = 0, {}
local final = { done = 'done', error = 'error', discarded = 'discarded', unfetched = 'error' }
for i = 5, #ARGV, 6 do
  local fp, outcome, now, notBefore, newA = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2]), tonumber(ARGV[i + 3]), ARGV[i + 4]
  local lv = call('HGET', B .. 'lh', fp)
  local id, score, owner, host, freed, counted
  if lv then id, score, owner, host, freed, counted = parseLease(lv) end
  local v = (not lv) and final[outcome] and getU(fp, nb)
  local q = v and (B .. 'q:' .. ARGV[i + 5])
  if v and call('ZREM', q, string.sub(v, 1, 4) .. fp) == 1 then
    host = ARGV[i + 5]
    delU(fp, nb, v)
    call('SREM', B .. 'rd', fp)
    tally.waiting = (tally.waiting or 0) - 1
    tally[final[outcome]] = (tally[final[outcome]] or 0) + 1
    if outcome == 'unfetched' then tally.unfetched = (tally.unfetched or 0) + 1
    else call('HINCRBY', B .. 'h:' .. host, 't', 1) end
    if not place(host, now, perHost, bud) then call('SREM', B .. 'hosts', host) end
    out[#out + 1] = 2
  elseif (not lv) or owner ~= worker then
    out[#out + 1] = 0
  elseif outcome == 'fetched' then
    if not freed then
      call('HSET', B .. 'lh', fp, lv .. ' f')
      local hk = B .. 'h:' .. host
      local st = call('HMGET', hk, 'f', 't', 'n', 'd', 'rm')
      local f = num(st[1], 0)
      local mayWait = f < perHost and not st[5]
      if f > 0 then f = f - 1 end
      local d = num(st[4], 0)
      if d < delay then d = delay end
      local nx = math.max(num(st[3], 0), now + d)
      placeKnown(host, hk, now, perHost, bud, f, num(st[2], 0), nx, st[5], st[5], mayWait, { 'f', f, 'n', nx })
    end
    out[#out + 1] = 1
  else
    call('ZREM', B .. 'lease', fp)
    call('HDEL', B .. 'lh', fp)
    fetching = fetching + 1
    if outcome == 'retry' or outcome == 'release' then
      call('ZADD', B .. 'q:' .. host, score, id .. fp)
      if outcome == 'retry' then
        local v = getU(fp, nb)
        setU(fp, nb, id .. newA .. string.sub(v, endOfA(v) + 1), v)
      end
      tally.waiting = (tally.waiting or 0) + 1
      call('SADD', B .. 'hosts', host)
    else
      local v = getU(fp, nb)
      if v then delU(fp, nb, v) end
      call('SREM', B .. 'rd', fp)
      if outcome == 'unfetched' then
        tally.error = (tally.error or 0) + 1
        tally.unfetched = (tally.unfetched or 0) + 1
      else
        tally[outcome] = (tally[outcome] or 0) + 1
      end
    end
    -- The host budget counts fetches: an attempt retried or released, an end without a request
    -- or a discard when claimed (robots.txt, a trap rule) gives its count back (a host at its
    -- budget may return to the heaps).
    local giveBack = counted and (outcome == 'retry' or outcome == 'release' or outcome == 'unfetched' or outcome == 'discarded')
    -- A final end of a lease whose slot was freed changes neither the host's slot, nor its
    -- queue, nor (with no notBefore ahead) its delay: its place, set when it was fetched, stands.
    if giveBack or not (freed and notBefore <= now and outcome ~= 'retry' and outcome ~= 'release') then
      local hk = B .. 'h:' .. host
      local st = call('HMGET', hk, 'f', 't', 'n', 'd', 'rm')
      local f = num(st[1], 0)
      local t = num(st[2], 0)
      if giveBack and t > 0 then t = t - 1 end
      -- At its in-flight limit the host was in neither heap; in ready (rm) it is not in wait.
      local mayWait = f < perHost and not st[5]
      local nx = math.max(num(st[3], 0), notBefore)
      if not freed then
        if f > 0 then f = f - 1 end
        local d = num(st[4], 0)
        if d < delay then d = delay end
        nx = math.max(nx, now + d)
      end
      placeKnown(host, hk, now, perHost, bud, f, t, nx, st[5], st[5], mayWait, { 'f', f, 'n', nx, 't', t })
    end
    out[#out + 1] = 1
  end
end
if fetching > 0 then call('HINCRBY', B .. 'n', 'fetching', -fetching) end
for k, c in pairs(tally) do call('HINCRBY', B .. 'n', k, c) end
return out
`;

/** ARGV: host, lease expiry, worker, state buckets per shard. Leases every waiting URL of the host; returns them as CLAIM does. */
const CLAIM_HOST = `
local host, expiry, worker = ARGV[1], ARGV[2], ARGV[3]
local nb = tonumber(ARGV[4])
local q = B .. 'q:' .. host
local hk = B .. 'h:' .. host
local all = call('ZRANGE', q, 0, -1, 'WITHSCORES')
local out = {}
for i = 1, #all, 2 do
  local m, sc = all[i], all[i + 1]
  local fp = string.sub(m, 5)
  call('ZADD', B .. 'lease', expiry, fp)
  call('HSET', B .. 'lh', fp, string.sub(m, 1, 4) .. sc .. ' ' .. worker .. ' ' .. host .. ' u')
  out[#out + 1] = fp
  out[#out + 1] = host
  out[#out + 1] = sc
  out[#out + 1] = getU(fp, nb) or ''
  out[#out + 1] = call('SISMEMBER', B .. 'rd', fp) == 1 and '1' or ''
end
local c = #all / 2
if c > 0 then
  call('DEL', q)
  call('SREM', B .. 'hosts', host)
  call('HINCRBY', hk, 'f', c)
  call('HINCRBY', B .. 'n', 'waiting', -c)
  call('HINCRBY', B .. 'n', 'fetching', c)
  local rm = call('HGET', hk, 'rm')
  if rm then
    call('ZREM', B .. 'ready', rm)
    call('HDEL', hk, 'rm')
  end
  call('ZREM', B .. 'wait', host)
end
return out
`;

/**
 * ARGV: now, limit, perHost, worker ('' for none). Returns leases that expired before `now` (at
 * most `limit`) to waiting with their priority and discovery order, frees their hosts' slots;
 * returns how many. A worker named is recorded as alive at `now` (B workers): every worker reaps
 * every few seconds whatever it is doing, so the heartbeat costs no round trip of its own.
 */
const REAP = `
local now = tonumber(ARGV[1])
if ARGV[4] and ARGV[4] ~= '' then
  call('ZADD', B .. 'workers', now, ARGV[4])
  call('ZREMRANGEBYSCORE', B .. 'workers', '-inf', now - 86400000)
end
local due = call('ZRANGEBYSCORE', B .. 'lease', '-inf', '(' .. ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local order, touched = {}, {}
local n = 0
for _, fp in ipairs(due) do
  call('ZREM', B .. 'lease', fp)
  local lv = call('HGET', B .. 'lh', fp)
  if lv then
    local id, score, owner, host, freed, counted = parseLease(lv)
    call('HDEL', B .. 'lh', fp)
    call('ZADD', B .. 'q:' .. host, score, id .. fp)
    call('SADD', B .. 'rd', fp)
    if not freed then freeSlot(B .. 'h:' .. host) end
    -- The URL waits again: its count goes back to the host's budget (it is counted when claimed again).
    if counted then
      local hk = B .. 'h:' .. host
      if num(call('HGET', hk, 't'), 0) > 0 then call('HINCRBY', hk, 't', -1) end
    end
    n = n + 1
    if not touched[host] then touched[host] = true; order[#order + 1] = host end
  end
end
if n > 0 then
  call('HINCRBY', B .. 'n', 'waiting', n)
  call('HINCRBY', B .. 'n', 'fetching', -n)
  local bud = budget()
  for _, host in ipairs(order) do
    call('SADD', B .. 'hosts', host)
    place(host, now, tonumber(ARGV[3]), bud)
  end
end
return #due
`;

/** ARGV: now, lease expiry, worker, keys... Extends leases this worker holds that have not expired. */
const RENEW = `
local now = tonumber(ARGV[1])
local n = 0
for i = 4, #ARGV do
  local fp = ARGV[i]
  local e = call('ZSCORE', B .. 'lease', fp)
  if e and tonumber(e) >= now then
    local lv = call('HGET', B .. 'lh', fp)
    local _, _, owner = parseLease(lv or '')
    if owner == ARGV[3] then
      call('ZADD', B .. 'lease', ARGV[2], fp)
      n = n + 1
    end
  end
end
return n
`;

/** ARGV: budget ('' for none), now, perHost. Stores the budget and places every host with waiting URLs again. */
const BUDGET = `
if ARGV[1] == '' then call('HDEL', B .. 'cfg', 'budget') else call('HSET', B .. 'cfg', 'budget', ARGV[1]) end
local now, perHost, bud = tonumber(ARGV[2]), tonumber(ARGV[3]), budget()
for _, host in ipairs(call('SMEMBERS', B .. 'hosts')) do place(host, now, perHost, bud) end
return 1
`;

/** ARGV: now, perHost, host, then member, score pairs. New scores for waiting URLs (XX: one claimed meanwhile stays claimed). */
const RESCORE = `
local host = ARGV[3]
for i = 4, #ARGV, 2 do call('ZADD', B .. 'q:' .. host, 'XX', ARGV[i + 1], ARGV[i]) end
place(host, tonumber(ARGV[1]), tonumber(ARGV[2]), budget())
return 1
`;

/** ARGV: state buckets per shard, keys... The state value of each (rescore), '' when it has none. */
const STATES = `
local nb = tonumber(ARGV[1])
local out = {}
for i = 2, #ARGV do out[#out + 1] = getU(ARGV[i], nb) or '' end
return out
`;

/** ARGV: bucket, member pairs. The seen set alone (RedisSeenSet.addMany): 1 new, 0 seen. */
const SEEN_ADD = `
local out = {}
local fresh = 0
for i = 1, #ARGV, 2 do
  local r = call('SADD', B .. 'seen:' .. ARGV[i], ARGV[i + 1])
  fresh = fresh + r
  out[#out + 1] = r
end
if fresh > 0 then call('HINCRBY', B .. 'n', 'seen', fresh) end
return out
`;

/** ARGV: bucket, member pairs: 1 when in the seen set. */
const SEEN_HAS = `
local out = {}
for i = 1, #ARGV, 2 do out[#out + 1] = call('SISMEMBER', B .. 'seen:' .. ARGV[i], ARGV[i + 1]) end
return out
`;

/**
 * Rebuild: URLs the record says are final. ARGV: state (done, error, discarded, 'too deep':
 * discarded and revivable, or 'unfetched': an error without a request), then bucket, member,
 * host triples. Each becomes seen and counted in its state, and a fetch (done, or an error after
 * a request) in its host's budget; one already seen is left alone.
 */
const RESTORE_FINAL = `
local deep = ARGV[1] == 'too deep'
local unfetched = ARGV[1] == 'unfetched'
local state = deep and 'discarded' or (unfetched and 'error') or ARGV[1]
local fetch = state == 'done' or (state == 'error' and not unfetched)
local fresh = 0
for i = 2, #ARGV, 3 do
  local n = call('SADD', B .. 'seen:' .. ARGV[i], ARGV[i + 1])
  if n == 1 and deep then call('SADD', B .. 'deep:' .. ARGV[i], ARGV[i + 1]) end
  -- A fetch counts against its host's budget (t), as it did before Redis lost it.
  if n == 1 and fetch then call('HINCRBY', B .. 'h:' .. ARGV[i + 2], 't', 1) end
  fresh = fresh + n
end
if fresh > 0 then
  call('HINCRBY', B .. 'n', 'seen', fresh)
  call('HINCRBY', B .. 'n', state, fresh)
  if unfetched then call('HINCRBY', B .. 'n', 'unfetched', fresh) end
end
return fresh
`;

const BODIES = {
  add: ADD,
  restoreFinal: RESTORE_FINAL,
  claim: CLAIM,
  end: END,
  claimHost: CLAIM_HOST,
  reap: REAP,
  renew: RENEW,
  budget: BUDGET,
  rescore: RESCORE,
  states: STATES,
  seenAdd: SEEN_ADD,
  seenHas: SEEN_HAS,
} as const;

export type ScriptName = keyof typeof BODIES;
export type ScriptArg = string | number | Buffer;
/** A defined script: KEYS[1] (the shard's counters key) then ARGV. Replies keep binary values as Buffers. */
export type ScriptCall = (key: string, ...args: ScriptArg[]) => Promise<unknown>;

/**
 * A guarded script refuses to run on a shard without the crawl's layout mark (cfg's `layout`,
 * RedisFrontier.layout), before it writes anything: a Redis restarted empty, or flushed,
 * under running workers. Unguarded, their next add and claim recreated the crawl's keys from
 * nothing (counters and page budget at 0), so they went on crawling a frontier of a few URLs, past
 * the page budget, and left keys that made `rebuild` refuse.
 */
export const LOST_MARK = 'FCLOST';
/** The key layout of these scripts, stored in each shard's cfg hash as `layout`: 2 is the compact, binary one. */
export const LAYOUT = '2';
/**
 * The mark a rebuild leaves while it refills the keys (RedisFrontier.beginRebuild): a worker's
 * scripts refuse it as they refuse no mark, so none crawls a half-rebuilt frontier, and one a
 * rebuild left half done (interrupted) stays refused until a rebuild finishes.
 */
export const REBUILDING = 'rebuilding';
const GUARD = `
local mark = call('HGET', B .. 'cfg', 'layout')
if mark ~= '${LAYOUT}' then return redis.error_reply('${LOST_MARK} ' .. (mark == '${REBUILDING}' and '${REBUILDING}' or 'the crawl has no keys here')) end
`;
/** The scripts a running worker calls, which must not recreate a lost crawl. */
const GUARDED: ReadonlySet<ScriptName> = new Set<ScriptName>(['add', 'claim', 'end', 'claimHost', 'reap', 'renew', 'budget', 'rescore']);

/** The full source of a script (`trace`: every command it runs is logged, for the hash-tag test; `guarded`: see GUARD). */
export function scriptSource(name: ScriptName, trace = false, guarded = false): string {
  return (trace ? TRACE_PREAMBLE : PREAMBLE) + HELPERS + (guarded && GUARDED.has(name) ? GUARD : '') + BODIES[name];
}

/**
 * Defines the scripts on a client (ioredis sends EVALSHA and falls back to EVAL once per
 * connection) and returns them as functions that answer with Buffers, since the u values
 * carry msgpack.
 */
export function defineScripts(redis: Redis, trace = false, guarded = false): Record<ScriptName, ScriptCall> {
  const out = {} as Record<ScriptName, ScriptCall>;
  for (const name of Object.keys(BODIES) as ScriptName[]) {
    // Namespaced, and apart for traced and guarded builds, so that scripts of other code on the same client do not collide.
    const command = `focuscrawl${trace ? 'Traced' : ''}${guarded ? 'Guarded' : ''}_${name}`;
    redis.defineCommand(command, { numberOfKeys: 1, lua: scriptSource(name, trace, guarded) });
    const fn = (redis as unknown as Record<string, ScriptCall | undefined>)[`${command}Buffer`];
    if (!fn) throw new Error(`ioredis did not define ${command}Buffer`);
    out[name] = fn.bind(redis);
  }
  return out;
}
