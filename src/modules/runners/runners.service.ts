// Self-hosted runners as administrators see them: one-hour registration and remove
// tokens, the runners of an organization or repository, their labels, deletion.
import { inTransaction, type AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { isoSeconds } from '../../domain/clock.ts';
import { NotFoundError, ValidationError, type FieldError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import type { Repo } from '../repos/repos.model.ts';
import { administeredScope, type RunnersAt } from './runners.access.ts';
import type { Runner, RunnerLabel, RunnerScope, RunnerTokenKind } from './runners.model.ts';
import { hashSecret, newRunnerToken } from './runner-secrets.ts';
import * as store from './runners.store.ts';

const TOKEN_LIFETIME_MS = 60 * 60 * 1000;
const RESOURCE = 'Runner';
export const MAX_LABEL = 100;

export interface IssuedRunnerToken {
  token: string;
  expiresAt: string;
  /** The repository a repository's token is for; null for an organization's. */
  repo: Repo | null;
}

export async function createToken(ctx: AppContext, actor: Actor, at: RunnersAt, kind: RunnerTokenKind): Promise<IssuedRunnerToken> {
  const { scope, repo } = await administeredScope(ctx, actor, at);
  const token = newRunnerToken();
  const now = ctx.clock.now();
  const expiresAt = isoSeconds(new Date(now.getTime() + TOKEN_LIFETIME_MS));
  await inTransaction(ctx, async (tx) => {
    await store.deleteExpiredTokens(tx.db, isoSeconds(now));
    await store.insertToken(tx.db, hashSecret(token), kind, scope, expiresAt, isoSeconds(now));
  });
  return { token, expiresAt, repo };
}

/** A runner with its labels, as views show it. */
export interface RunnerRecord {
  runner: Runner;
  labels: RunnerLabel[];
}

export async function withLabels(ctx: AppContext, runners: readonly Runner[]): Promise<RunnerRecord[]> {
  const labels = await store.labelsOf(ctx.db, runners.map((r) => r.id));
  return runners.map((runner) => ({ runner, labels: labels.get(runner.id) ?? [] }));
}

export async function listRunners(ctx: AppContext, actor: Actor, at: RunnersAt, name: string | undefined, slice: Slice): Promise<Page<RunnerRecord>> {
  const { scope } = await administeredScope(ctx, actor, at);
  const filter = name === undefined ? {} : { name };
  const [items, total] = await Promise.all([store.listRunners(ctx.db, scope, filter, slice), store.countRunners(ctx.db, scope, filter)]);
  return { items: await withLabels(ctx, items), total };
}

async function requireRunner(ctx: AppContext, scope: RunnerScope, id: number): Promise<Runner> {
  const runner = await store.findRunner(ctx.db, scope, id);
  if (!runner) throw new NotFoundError();
  return runner;
}

export async function getRunner(ctx: AppContext, actor: Actor, at: RunnersAt, id: number): Promise<RunnerRecord> {
  const { scope } = await administeredScope(ctx, actor, at);
  return (await withLabels(ctx, [await requireRunner(ctx, scope, id)]))[0]!;
}

export async function deleteRunner(ctx: AppContext, actor: Actor, at: RunnersAt, id: number): Promise<void> {
  const { scope } = await administeredScope(ctx, actor, at);
  const runner = await requireRunner(ctx, scope, id);
  // Upstream refuses to delete a runner while it runs a job; one gone silent is not running any.
  const offlineBefore = isoSeconds(new Date(ctx.clock.now().getTime() - ctx.config.runnerOfflineSeconds * 1000));
  if (runner.busy && runner.lastSeenAt !== null && runner.lastSeenAt > offlineBefore) {
    throw ValidationError.field(RESOURCE, 'runner_id', 'custom', 'The runner is running a job; try again once it is idle.');
  }
  await store.deleteRunner(ctx.db, runner.id);
}

// ---------------------------------------------------------------- labels

/** Label names, trimmed, each non-blank and short; refuses the whole request otherwise. */
export function checkLabels(names: readonly string[], field = 'labels'): string[] {
  const errors: FieldError[] = [];
  const out: string[] = [];
  for (const raw of names) {
    const name = raw.trim();
    if (name === '' || name.length > MAX_LABEL || name.includes(',')) {
      errors.push({ resource: RESOURCE, field, code: 'invalid', message: `Invalid label name: "${raw}"` });
    } else if (!out.some((n) => n.toLowerCase() === name.toLowerCase())) out.push(name);
  }
  if (errors.length) throw new ValidationError(errors);
  return out;
}

export async function listLabels(ctx: AppContext, actor: Actor, at: RunnersAt, id: number): Promise<RunnerLabel[]> {
  return (await getRunner(ctx, actor, at, id)).labels;
}

/** Adds custom labels (`replace`: they become the only custom labels); read-only ones stay. */
export async function changeLabels(
  ctx: AppContext, actor: Actor, at: RunnersAt, id: number, names: readonly string[], replace: boolean,
): Promise<RunnerLabel[]> {
  const { scope } = await administeredScope(ctx, actor, at);
  const runner = await requireRunner(ctx, scope, id);
  const labels = checkLabels(names);
  if (!replace && labels.length === 0) throw ValidationError.field(RESOURCE, 'labels', 'missing_field', 'labels must name at least one label');
  await inTransaction(ctx, async (tx) => {
    if (replace) await store.deleteCustomLabels(tx.db, runner.id);
    await store.insertLabels(tx.db, runner.id, labels, 'custom');
  });
  return (await store.labelsOf(ctx.db, [runner.id])).get(runner.id) ?? [];
}

/** Removes one custom label, or all of them (`name` undefined); answers the labels left. */
export async function removeLabels(ctx: AppContext, actor: Actor, at: RunnersAt, id: number, name?: string): Promise<RunnerLabel[]> {
  const { scope } = await administeredScope(ctx, actor, at);
  const runner = await requireRunner(ctx, scope, id);
  const current = (await store.labelsOf(ctx.db, [runner.id])).get(runner.id) ?? [];
  if (name !== undefined) {
    const label = current.find((l) => l.name.toLowerCase() === name.toLowerCase());
    if (!label) throw new NotFoundError();
    if (label.type === 'read-only') throw ValidationError.field(RESOURCE, 'name', 'invalid', 'Read-only labels cannot be removed.');
  }
  await store.deleteCustomLabels(ctx.db, runner.id, name);
  return (await store.labelsOf(ctx.db, [runner.id])).get(runner.id) ?? [];
}
