// Rate-limit counters in Redis (REDIS_URL), for deployments of many Wharf processes
// that would rather not write the database on every request. Same window rule as
// the database store: the first request after a window ends starts the next one.
import { Redis } from 'ioredis';
import type { Counter, RateLimitStore } from './rate-limit-store.ts';

// KEYS[1] bucket; ARGV: now, window seconds, amount. Returns {used, reset_at}.
const HIT = `
local reset = tonumber(redis.call('HGET', KEYS[1], 'reset') or '0')
local now = tonumber(ARGV[1])
local amount = tonumber(ARGV[3] or '1')
if reset <= now then
  reset = now + tonumber(ARGV[2])
  redis.call('HSET', KEYS[1], 'reset', reset, 'used', amount)
  redis.call('EXPIREAT', KEYS[1], reset)
  return {amount, reset}
end
return {redis.call('HINCRBY', KEYS[1], 'used', amount), reset}
`;

// KEYS[1] bucket; ARGV: reset_at of the window the refund belongs to, amount.
const REFUND = `
if redis.call('HGET', KEYS[1], 'reset') == ARGV[1] then
  local used = tonumber(redis.call('HGET', KEYS[1], 'used'))
  redis.call('HSET', KEYS[1], 'used', math.max(0, used - tonumber(ARGV[2])))
end
return 0
`;

export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;

  constructor(url: string, prefix: string) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 2, keyPrefix: `${prefix}rate:` });
  }

  async hit(bucket: string, now: number, windowSeconds: number, amount = 1): Promise<Counter> {
    const [used, resetAt] = await this.redis.eval(HIT, 1, bucket, now, windowSeconds, amount) as [number, number];
    return { used: Number(used), resetAt: Number(resetAt) };
  }

  async refund(bucket: string, resetAt: number, amount = 1): Promise<void> {
    await this.redis.eval(REFUND, 1, bucket, String(resetAt), String(amount));
  }

  async peek(bucket: string, now: number, windowSeconds: number): Promise<Counter> {
    const [used, reset] = await this.redis.hmget(bucket, 'used', 'reset');
    const resetAt = Number(reset ?? 0);
    if (resetAt <= now) return { used: 0, resetAt: now + windowSeconds };
    return { used: Number(used ?? 0), resetAt };
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}
