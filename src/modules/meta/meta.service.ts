// Service metadata: host keys, design principles, the mascot's words, rate-limit budgets.
import type { Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { epochSeconds } from '../../domain/clock.ts';
import { budgetFor, RATE_LIMIT_RESOURCES, type RateLimitResource } from '../../http/rate-limit.ts';
import type { RateLimitStore } from '../../http/rate-limit-store.ts';
import { ensureHostKeys, loadHostKeys, loadHostPrivateKeys, type HostKey } from './meta.host-keys.ts';
import { PRINCIPLES } from './zen.ts';

// By the server's configuration, not its context: calls and transactions run with copies of the context.
const loaded = new WeakMap<Config, HostKey[]>();

/**
 * The server's SSH host keys, made on first use (an RSA key takes ~0.3 s to generate,
 * which every start on a fresh data dir paid) and kept in the data dir from then on.
 * Read once: they never change while running.
 */
export function hostKeys(ctx: AppContext): HostKey[] {
  let keys = loaded.get(ctx.config);
  if (!keys) {
    ensureHostKeys(ctx.config.dataDir);
    keys = loadHostKeys(ctx.config.dataDir);
    loaded.set(ctx.config, keys);
  }
  return keys;
}

/** The private halves of hostKeys (made on first use too), for the SSH server (git-ssh). */
export function hostPrivateKeys(ctx: AppContext): string[] {
  hostKeys(ctx);
  return loadHostPrivateKeys(ctx.config.dataDir);
}

export function randomPrinciple(random: () => number = Math.random): string {
  return PRINCIPLES[Math.floor(random() * PRINCIPLES.length)]!;
}

/** What the mascot says: the caller's text, or a principle when there is none. */
export function mascotMessage(s: string | undefined): string {
  return s === undefined || s.trim() === '' ? randomPrinciple() : s;
}

export interface RateBudgetStatus {
  resource: RateLimitResource;
  limit: number;
  used: number;
  /** Epoch seconds at which the window ends. */
  resetAt: number;
}

/** Every budget of the caller as the counters stand; looking does not spend any. */
export async function rateLimitStatus(ctx: AppContext, store: RateLimitStore, actor: Actor): Promise<RateBudgetStatus[]> {
  const now = epochSeconds(ctx.clock);
  return Promise.all(RATE_LIMIT_RESOURCES.map(async (resource) => {
    const budget = budgetFor(actor, resource, ctx.config.rateLimit);
    const counter = await store.peek(budget.bucket, now, budget.windowSeconds);
    return { resource, limit: budget.limit, used: counter.used, resetAt: counter.resetAt };
  }));
}
