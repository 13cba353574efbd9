// Milestones: numbered per repository from issue_counters, titles unique per
// repository, open_issues/closed_issues counted from the issues (pull requests too).
import { inTransaction, type AppContext } from '../../context.ts';
import { requireUser, type Actor } from '../../domain/actor.ts';
import { isoSeconds, nowIso } from '../../domain/clock.ts';
import { NotFoundError, ValidationError, type FieldError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import { TEXT_LIMITS } from '../../domain/text-limits.ts';
import { recordEvent } from '../../events/outbox.ts';
import { roleAtLeast, type Repo, type Role } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import type { MilestoneRecord, MilestoneState } from './issues.model.ts';
import { presentMilestones } from './issues.present.ts';
import { orgIdOf, requireWritable } from './issues.service.ts';
import { isUniqueViolation } from './labels.service.ts';
import * as store from './issues.store.ts';
import * as milestoneStore from './milestones.store.ts';
import type { MilestoneView } from './issues.views.ts';

const RESOURCE = 'Milestone';

export interface MilestoneInput {
  title?: unknown;
  state?: unknown;
  description?: unknown;
  due_on?: unknown;
}

interface Valid {
  title?: string;
  state?: MilestoneState;
  description?: string | null;
  dueOn?: string | null;
}

function validate(input: MilestoneInput, creating: boolean): Valid {
  const errors: FieldError[] = [];
  const out: Valid = {};
  if (input.title === undefined || input.title === null || input.title === '') {
    if (creating || input.title !== undefined) errors.push({ resource: RESOURCE, field: 'title', code: 'missing_field' });
  } else if (typeof input.title !== 'string') errors.push({ resource: RESOURCE, field: 'title', code: 'invalid', value: input.title });
  else out.title = input.title;
  if (input.state !== undefined) {
    if (input.state === 'open' || input.state === 'closed') out.state = input.state;
    else errors.push({ resource: RESOURCE, field: 'state', code: 'invalid', value: input.state });
  }
  if (input.description !== undefined) {
    if (input.description === null || typeof input.description === 'string') out.description = input.description;
    else errors.push({ resource: RESOURCE, field: 'description', code: 'invalid', value: input.description });
  }
  if (input.due_on !== undefined) {
    const t = typeof input.due_on === 'string' ? Date.parse(input.due_on) : NaN;
    if (input.due_on === null) out.dueOn = null;
    else if (Number.isNaN(t)) errors.push({ resource: RESOURCE, field: 'due_on', code: 'invalid', value: input.due_on });
    else out.dueOn = isoSeconds(new Date(t));
  }
  const tooLong = (field: string, value: string | null | undefined, max: number) => {
    if (typeof value === 'string' && value.length > max) errors.push({ resource: RESOURCE, field, code: 'invalid', message: `${field} is too long (maximum is ${max} characters)` });
  };
  tooLong('title', out.title, TEXT_LIMITS.milestoneTitle);
  tooLong('description', out.description, TEXT_LIMITS.milestoneDescription);
  if (errors.length) throw new ValidationError(errors);
  return out;
}

function alreadyExists(): ValidationError {
  return new ValidationError([{ resource: RESOURCE, field: 'title', code: 'already_exists' }]);
}

/** Creating, editing, closing and deleting milestones takes push access (GraphQL's viewerCan* fields use it too). */
export const MILESTONE_EDIT_ROLE: Role = 'push';

export function canEditMilestones(role: Role | null): boolean {
  return roleAtLeast(role, MILESTONE_EDIT_ROLE);
}

async function locateFor(ctx: AppContext, actor: Actor, owner: string, name: string, needed: Role): Promise<Repo> {
  const { repo } = await repos.locate(ctx, actor, owner, name, needed);
  if (needed !== 'pull') requireWritable(repo);
  return repo;
}

async function requireMilestone(ctx: AppContext, repo: Repo, number: number): Promise<MilestoneRecord> {
  const m = Number.isSafeInteger(number) ? await milestoneStore.findByNumber(ctx.db, repo.id, number) : null;
  if (!m) throw new NotFoundError();
  return m;
}

/** A milestone with the repository it belongs to (what its view needs). */
export interface MilestoneAt {
  repo: Repo;
  milestone: MilestoneRecord;
}

async function one(ctx: AppContext, repo: Repo, m: MilestoneRecord): Promise<MilestoneView> {
  return (await presentMilestones(ctx, repo, [m]))[0]!;
}

async function emit(tx: AppContext, actor: Actor, repo: Repo, action: string, m: MilestoneRecord, changes?: Record<string, unknown>): Promise<void> {
  await recordEvent(tx, {
    event: 'milestone', action, repositoryId: repo.id, organizationId: orgIdOf(repo), actorId: actor.user?.id ?? null,
    payload: { milestone: await one(tx, repo, m), ...(changes ? { changes } : {}) },
  });
}

export interface ListMilestonesQuery {
  state?: 'open' | 'closed' | 'all';
  sort?: 'due_on' | 'completeness';
  direction?: 'asc' | 'desc';
}

export async function listMilestones(ctx: AppContext, actor: Actor, owner: string, name: string, q: ListMilestonesQuery, slice: Slice): Promise<{ repo: Repo; page: Page<MilestoneRecord> }> {
  const repo = await locateFor(ctx, actor, owner, name, 'pull');
  const { rows, total } = await milestoneStore.list(ctx.db, repo.id, {
    state: q.state ?? 'open', sort: q.sort ?? 'due_on', direction: q.direction ?? 'asc',
  }, slice);
  return { repo, page: { items: rows, total } };
}

export async function getMilestone(ctx: AppContext, actor: Actor, owner: string, name: string, number: number): Promise<MilestoneAt> {
  const repo = await locateFor(ctx, actor, owner, name, 'pull');
  return { repo, milestone: await requireMilestone(ctx, repo, number) };
}

export async function createMilestone(ctx: AppContext, actor: Actor, owner: string, name: string, input: MilestoneInput): Promise<MilestoneAt> {
  const user = requireUser(actor);
  const repo = await locateFor(ctx, actor, owner, name, MILESTONE_EDIT_ROLE);
  const v = validate(input, true);
  const created = await inTransaction(ctx, async (tx) => {
    if (await milestoneStore.findByTitle(tx.db, repo.id, v.title!)) throw alreadyExists();
    const number = await store.allocateMilestoneNumber(tx.db, repo.id);
    const m = await milestoneStore.insert(tx.db, repo.id, {
      number, title: v.title!, description: v.description ?? null, state: v.state ?? 'open', creatorId: user.id, dueOn: v.dueOn ?? null,
    }, nowIso(tx.clock));
    await emit(tx, actor, repo, 'created', m);
    return m;
  }).catch((err: unknown) => {
    if (isUniqueViolation(err)) throw alreadyExists();
    throw err;
  });
  return { repo, milestone: created };
}

export async function updateMilestone(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, input: MilestoneInput,
): Promise<MilestoneAt> {
  const repo = await locateFor(ctx, actor, owner, name, MILESTONE_EDIT_ROLE);
  const v = validate(input, false);
  const updated = await inTransaction(ctx, async (tx) => {
    const current = await requireMilestone(tx, repo, number);
    if (v.title !== undefined && v.title.toLowerCase() !== current.title.toLowerCase()) {
      if (await milestoneStore.findByTitle(tx.db, repo.id, v.title)) throw alreadyExists();
    }
    const now = nowIso(tx.clock);
    const closing = v.state === 'closed' && current.state === 'open';
    const opening = v.state === 'open' && current.state === 'closed';
    const m = await milestoneStore.update(tx.db, current.id, {
      ...v, ...(closing ? { closedAt: now } : opening ? { closedAt: null } : {}),
    }, now);
    const changes: Record<string, { from: string | null }> = {};
    if (m.title !== current.title) changes.title = { from: current.title };
    if (m.description !== current.description) changes.description = { from: current.description };
    if (m.dueOn !== current.dueOn) changes.due_on = { from: current.dueOn };
    if (Object.keys(changes).length) await emit(tx, actor, repo, 'edited', m, changes);
    if (closing) await emit(tx, actor, repo, 'closed', m);
    if (opening) await emit(tx, actor, repo, 'opened', m);
    return m;
  });
  return { repo, milestone: updated };
}

export async function deleteMilestone(ctx: AppContext, actor: Actor, owner: string, name: string, number: number): Promise<void> {
  const repo = await locateFor(ctx, actor, owner, name, MILESTONE_EDIT_ROLE);
  await inTransaction(ctx, async (tx) => {
    const m = await requireMilestone(tx, repo, number);
    await emit(tx, actor, repo, 'deleted', m);
    await milestoneStore.remove(tx.db, m.id);
  });
}
