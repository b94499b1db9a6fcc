import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { MAX_BACKOFF_DOUBLINGS } from './counter-store.js';

/**
 * The counter steps as Lua, so that each runs atomically inside Redis. A counter is a hash: c (count),
 * r (window end), l (last take), a (the window end whose going over the limit was announced). Times come
 * from the caller (ARGV), as in the other stores; the key's own expiry only removes what is over.
 * Numbers are written with %.0f: Lua's default formatting would round milliseconds since the epoch.
 */
const FIELDS = `
local function num(v) if v then return tonumber(v) end return nil end
local function int(v) return string.format('%.0f', v) end
`;

/** ARGV: now, windowMs, limit, backoffMs (0: none). Returns {taken 0/1, count, resetAt, lastAt}. */
const TAKE = `${FIELDS}
local now, window, limit, backoff = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local h = redis.call('HMGET', KEYS[1], 'c', 'r', 'l')
local c, r, l = num(h[1]), num(h[2]), num(h[3])
if c == nil or r == nil or l == nil or r <= now then
  r = now + window
  redis.call('DEL', KEYS[1])
  redis.call('HSET', KEYS[1], 'c', 1, 'r', int(r), 'l', int(now))
  redis.call('PEXPIRE', KEYS[1], window)
  return {1, 1, int(r), int(now)}
end
local allowed = c < limit
if not allowed and backoff > 0 then
  local d = math.min(c - limit, ${MAX_BACKOFF_DOUBLINGS})
  allowed = now >= l + backoff * (2 ^ d)
end
if not allowed then return {0, c, int(r), int(l)} end
c = redis.call('HINCRBY', KEYS[1], 'c', 1)
redis.call('HSET', KEYS[1], 'l', int(now))
return {1, c, int(r), int(now)}
`;

/** ARGV: resetAt. */
const REFUND = `${FIELDS}
local h = redis.call('HMGET', KEYS[1], 'c', 'r')
if num(h[2]) == tonumber(ARGV[1]) and (num(h[1]) or 0) > 0 then redis.call('HINCRBY', KEYS[1], 'c', -1) end
return 0
`;

/** ARGV: limit, now. Returns 1 for the one caller that announces. */
const ANNOUNCE = `${FIELDS}
local h = redis.call('HMGET', KEYS[1], 'c', 'r', 'a')
local c, r, a = num(h[1]), num(h[2]), num(h[3])
if c == nil or r == nil or r <= tonumber(ARGV[2]) or c < tonumber(ARGV[1]) or a == r then return 0 end
redis.call('HSET', KEYS[1], 'a', int(r))
return 1
`;

export class LuaScript {
  private readonly sha: string;
  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  /** EVALSHA, loading the script with EVAL the first time a server has not seen it (or after a restart). */
  async run(redis: Redis, key: string, args: Array<string | number>): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, 1, key, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return await redis.eval(this.source, 1, key, ...args);
    }
  }
}

export const takeScript = new LuaScript(TAKE);
export const refundScript = new LuaScript(REFUND);
export const announceScript = new LuaScript(ANNOUNCE);

/** The integers of a script's array reply, or an error naming what came back instead. */
export function integers(reply: unknown, length: number): number[] {
  const values: number[] = [];
  for (const v of Array.isArray(reply) ? reply : []) {
    const n = typeof v === 'string' ? Number(v) : v;
    if (typeof n === 'number' && Number.isSafeInteger(n)) values.push(n);
  }
  if (values.length !== length || !Array.isArray(reply) || reply.length !== length)
    throw new Error(`unexpected reply from a rate counter script: ${JSON.stringify(reply)}`);
  return values;
}
