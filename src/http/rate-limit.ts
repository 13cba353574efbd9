// Per-caller request budgets: the X-RateLimit-* headers on every response, a 403 past the limit.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimitConfig } from '../config.ts';
import type { Actor } from '../domain/actor.ts';
import { isoSeconds } from '../domain/clock.ts';
import { HttpError } from './errors.ts';
import type { Counter, RateLimitStore } from './rate-limit-store.ts';
import type { RateResource } from './types.ts';

export interface RateState extends Counter {
  bucket: string;
  limit: number;
  resource: RateResource;
  counted: boolean;
}

export interface Budget {
  bucket: string;
  limit: number;
  windowSeconds: number;
}

/**
 * Every budget GET /rate_limit reports, in upstream's order. Routes spend core, search
 * or graphql; the others are kept apart for the endpoints that will spend them.
 */
export const RATE_LIMIT_RESOURCES = [
  'core', 'search', 'graphql', 'integration_manifest', 'source_import', 'code_scanning_upload',
  'actions_runner_registration', 'scim', 'dependency_snapshots', 'code_search',
] as const;
export type RateLimitResource = (typeof RATE_LIMIT_RESOURCES)[number];

/** Whose budget a request spends, and how large it is. */
export function budgetFor(actor: Actor, resource: RateLimitResource, cfg: RateLimitConfig): Budget {
  // An installation has a budget of its own, apart from its bot's and its app's other
  // installations'; an app's JWT spends the app's.
  // A user-to-server token spends its user's budget, as upstream's do.
  const integration = actor.method === 'user_to_server' ? null : actor.integration;
  const who = integration ? (integration.installationId !== null ? `installation:${integration.installationId}` : `integration:${integration.appId}`)
    : actor.user ? `user:${actor.user.id}` : actor.oauthAppId !== null ? `app:${actor.oauthAppId}` : `ip:${actor.ip}`;
  // Code search is a per-minute search budget of its own, as upstream counts it.
  if (resource === 'search' || resource === 'code_search') {
    const limit = actor.method === 'anonymous' ? cfg.searchUnauthenticated : cfg.searchAuthenticated;
    return { bucket: `${resource}:${who}`, limit, windowSeconds: 60 };
  }
  const limit = actor.user || integration ? cfg.authenticated : actor.oauthAppId !== null ? cfg.oauthApp : cfg.unauthenticated;
  return { bucket: `${resource}:${who}`, limit, windowSeconds: cfg.windowSeconds };
}

export function rateHeaders(s: RateState): Record<string, string> {
  return {
    'x-ratelimit-limit': String(s.limit),
    'x-ratelimit-remaining': String(Math.max(0, s.limit - s.used)),
    'x-ratelimit-reset': String(s.resetAt),
    'x-ratelimit-used': String(Math.min(s.used, s.limit)),
    'x-ratelimit-resource': s.resource,
  };
}

export async function applyRateLimit(
  request: FastifyRequest, reply: FastifyReply, store: RateLimitStore, cfg: RateLimitConfig, nowEpoch: number,
): Promise<void> {
  const configured = request.routeOptions.config.rateLimit ?? 'core';
  if (configured === 'exempt') return;
  const resource: RateResource = configured === 'none' ? 'core' : configured;
  const budget = budgetFor(request.actor, resource, cfg);
  const counted = configured !== 'none';
  const counter = counted
    ? await store.hit(budget.bucket, nowEpoch, budget.windowSeconds)
    : await store.peek(budget.bucket, nowEpoch, budget.windowSeconds);
  const state: RateState = { ...counter, bucket: budget.bucket, limit: budget.limit, resource, counted };
  request.rate = state;
  reply.headers(rateHeaders(state));
  if (counted && counter.used > budget.limit) {
    const who = request.actor.user ? `user ID ${request.actor.user.id}` : request.actor.ip;
    throw new HttpError(
      403,
      `API rate limit exceeded for ${who}. The limit of ${budget.limit} requests resets at ${isoSeconds(new Date(counter.resetAt * 1000))}.`,
    );
  }
}
