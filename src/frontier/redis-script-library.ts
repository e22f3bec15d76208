/**
 * The Lua every script of the Redis frontier starts with (redis-scripts.ts has the key layout and
 * the scripts): the shard's base key, the carried state kept in listpack-sized pieces (getU, setU,
 * delU), and a host's place in the `wait` and `ready` heaps (placeKnown, place), which keeps the
 * invariant the scripts promise.
 */

export const PREAMBLE = `
local B = string.sub(KEYS[1], 1, -2)
local call = redis.call
`;

/** Test builds log every command a script runs to `B trace`, a key in the same slot. */
export const TRACE_PREAMBLE = `
local B = string.sub(KEYS[1], 1, -2)
local call = function(...)
  redis.call('RPUSH', B .. 'trace', cmsgpack.pack({...}))
  return redis.call(...)
end
`;

export const HELPERS = `
local LP = 64
local MAXP = 16
local function num(v, d) if v then return tonumber(v) end return d end
local function be4(n)
  return string.char(math.floor(n / 16777216) % 256, math.floor(n / 65536) % 256, math.floor(n / 256) % 256, n % 256)
end
local function ukey(fp, nb)
  return B .. 'u:' .. ((string.byte(fp, 1) * 1024 + string.byte(fp, 2) * 4 + math.floor(string.byte(fp, 3) / 64)) % nb)
end
local function pieceField(fp, i) if i == 1 then return fp end return fp .. string.char(i - 1) end
-- Pieces a value of len bytes is stored in: the first holds a count byte and LP - 1 bytes, the
-- others LP bytes each; 0 when it is stored whole in ul.
local function piecesOf(len)
  if len <= LP - 1 then return 1 end
  local n = 1 + math.ceil((len - LP + 1) / LP)
  if n > MAXP then return 0 end
  return n
end
local function getU(fp, nb)
  local k = ukey(fp, nb)
  local first = call('HGET', k, fp)
  if not first then return false end
  local c = string.byte(first, 1)
  if c == 0 then return call('HGET', B .. 'ul', fp) end
  if c == 1 then return string.sub(first, 2) end
  local fields = {}
  for i = 2, c do fields[#fields + 1] = pieceField(fp, i) end
  return string.sub(first, 2) .. table.concat(call('HMGET', k, unpack(fields)))
end
local function setU(fp, nb, v, old)
  local k = ukey(fp, nb)
  local n = piecesOf(#v)
  if old then
    local o = piecesOf(#old)
    if o == 0 then
      if n ~= 0 then call('HDEL', B .. 'ul', fp) end
    else
      local extra = {}
      for i = math.max(n, 1) + 1, o do extra[#extra + 1] = pieceField(fp, i) end
      if #extra > 0 then call('HDEL', k, unpack(extra)) end
    end
  end
  if n == 0 then
    call('HSET', B .. 'ul', fp, v)
    call('HSET', k, fp, string.char(0))
    return
  end
  local args = { fp, string.char(n) .. string.sub(v, 1, LP - 1) }
  for i = 2, n do
    local from = LP + (i - 2) * LP
    args[#args + 1] = pieceField(fp, i)
    args[#args + 1] = string.sub(v, from, from + LP - 1)
  end
  call('HSET', k, unpack(args))
end
local function delU(fp, nb, old)
  local k = ukey(fp, nb)
  local n = piecesOf(#old)
  if n == 0 then
    call('HDEL', B .. 'ul', fp)
    n = 1
  end
  local fields = {}
  for i = 1, n do fields[i] = pieceField(fp, i) end
  call('HDEL', k, unpack(fields))
end
-- The last byte of id .. A in a value: A's header is 1 byte, or 0xff and 4 bytes.
local function endOfA(v)
  local b = string.byte(v, 5)
  if b < 255 then return 5 + b end
  return 9 + ((string.byte(v, 6) * 256 + string.byte(v, 7)) * 256 + string.byte(v, 8)) * 256 + string.byte(v, 9)
end
-- R (msgpack: a fixarray, then the depth, a non-negative integer) with the smaller of its depth
-- and old R's: a raise takes the better parent's state but must not deepen the URL.
local function intEnd(r)
  local b = string.byte(r, 2)
  if b < 128 then return 2 end
  if b == 204 then return 3 end
  if b == 205 then return 4 end
  if b == 206 then return 6 end
  return 10
end
local function depthOf(r)
  local e = intEnd(r)
  if e == 2 then return string.byte(r, 2) end
  local d = 0
  for i = 3, e do d = d * 256 + string.byte(r, i) end
  return d
end
local function shallower(r, old)
  if depthOf(old) >= depthOf(r) then return r end
  return string.sub(r, 1, 1) .. string.sub(old, 2, intEnd(old)) .. string.sub(r, intEnd(r) + 1)
end
local function budget() return num(call('HGET', B .. 'cfg', 'budget'), nil) end
local function placeKnown(host, hk, now, perHost, bud, f, t, nx, rm, hasRm, mayWait, sets)
  if rm then call('ZREM', B .. 'ready', rm) end
  if mayWait then call('ZREM', B .. 'wait', host) end
  local head = call('ZRANGE', B .. 'q:' .. host, 0, 0, 'WITHSCORES')
  local newRm = false
  if #head > 0 and f < perHost and not (bud and t >= bud) then
    if nx > now then
      call('ZADD', B .. 'wait', nx, host)
    else
      newRm = string.sub(head[1], 1, 4) .. host
      call('ZADD', B .. 'ready', head[2], newRm)
    end
  end
  if newRm then
    sets[#sets + 1] = 'rm'
    sets[#sets + 1] = newRm
  elseif hasRm then
    call('HDEL', hk, 'rm')
  end
  if #sets > 0 then call('HSET', hk, unpack(sets)) end
  return #head > 0
end
local function place(host, now, perHost, bud)
  local hk = B .. 'h:' .. host
  local st = call('HMGET', hk, 'f', 't', 'n', 'rm')
  return placeKnown(host, hk, now, perHost, bud, num(st[1], 0), num(st[2], 0), num(st[3], 0), st[4], st[4], true, {})
end
-- A lease: id .. 'score worker host', ' u' when no host budget counted it (CLAIM_HOST), and ' f'
-- once the host's slot was freed (Frontier.fetched). Returns id, score, owner, host, freed, counted.
local function parseLease(v)
  local score, owner, host, rest = string.match(string.sub(v, 5), '^(%S+) (%S+) (%S+)(.*)$')
  return string.sub(v, 1, 4), score, owner, host, string.find(rest, ' f', 1, true) ~= nil, string.find(rest, ' u', 1, true) == nil
end
local function freeSlot(hk)
  if num(call('HGET', hk, 'f'), 0) > 0 then call('HINCRBY', hk, 'f', -1) end
end
`;
