// Repository labels (names unique per repository, compared without case; colors six
// hex digits without '#'), the labels on an issue, the labels of a milestone's issues,
// and upstream's default label set on every new repository.
import { inTransaction, type AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { ForbiddenError, NotFoundError, ValidationError, type FieldError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import { TEXT_LIMITS } from '../../domain/text-limits.ts';
import { recordEvent } from '../../events/outbox.ts';
import { type Repo, type Role } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import { DEFAULT_LABELS, type LabelRecord } from './issues.model.ts';
import { refOf } from './issues.present.ts';
import {
  addLabels, canTriageIssues, labelNames, locateIssue, NEW_LABEL_COLOR, orgIdOf, removeLabel, requireWritable,
} from './issues.service.ts';
import * as labelStore from './labels.store.ts';
import * as milestoneStore from './milestones.store.ts';
import { labelView } from './issues.views.ts';

const RESOURCE = 'Label';
const COLOR = /^[0-9a-fA-F]{6}$/;

/** Labels with the repository they belong to (what their views need). */
export interface LabelsOf {
  repo: Repo;
  labels: LabelRecord[];
}

export interface LabelAt {
  repo: Repo;
  label: LabelRecord;
}

export interface LabelPageOf {
  repo: Repo;
  page: Page<LabelRecord>;
}

async function locateFor(ctx: AppContext, actor: Actor, owner: string, name: string, needed: Role) {
  const { repo } = await repos.locate(ctx, actor, owner, name, needed);
  if (needed !== 'pull') requireWritable(repo);
  return repo;
}

async function requireLabel(ctx: AppContext, repo: Repo, name: string): Promise<LabelRecord> {
  const label = await labelStore.findByName(ctx.db, repo.id, name);
  if (!label) throw new NotFoundError();
  return label;
}

async function emit(tx: AppContext, actor: Actor, repo: Repo, action: string, label: LabelRecord, changes?: Record<string, unknown>): Promise<void> {
  await recordEvent(tx, {
    event: 'label', action, repositoryId: repo.id, organizationId: orgIdOf(repo), actorId: actor.user?.id ?? null,
    payload: { label: labelView(label, refOf(repo), tx.urls), ...(changes ? { changes } : {}) },
  });
}

// ---------------------------------------------------------------- validation

export interface LabelInput {
  name?: unknown;
  new_name?: unknown;
  color?: unknown;
  description?: unknown;
}

function nameOf(raw: unknown, field: string, errors: FieldError[]): string | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || raw.trim() === '') {
    errors.push(raw === null || raw === '' ? { resource: RESOURCE, field, code: 'missing_field' } : { resource: RESOURCE, field, code: 'invalid', value: raw });
    return undefined;
  }
  if (raw.trim().length > TEXT_LIMITS.labelName) {
    errors.push({ resource: RESOURCE, field, code: 'invalid', message: `${field} is too long (maximum is ${TEXT_LIMITS.labelName} characters)` });
    return undefined;
  }
  return raw.trim();
}

function colorOf(raw: unknown, errors: FieldError[]): string | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !COLOR.test(raw)) {
    errors.push({ resource: RESOURCE, field: 'color', code: 'invalid', value: raw, message: 'color must be six hexadecimal digits without a leading #' });
    return undefined;
  }
  return raw.toLowerCase();
}

function descriptionOf(raw: unknown, errors: FieldError[]): string | null | undefined {
  if (raw === undefined || raw === null) return raw as undefined | null;
  if (typeof raw !== 'string' || raw.length > TEXT_LIMITS.labelDescription) {
    errors.push({ resource: RESOURCE, field: 'description', code: 'invalid', ...(typeof raw === 'string' ? {} : { value: raw }), message: `description must be a string of at most ${TEXT_LIMITS.labelDescription} characters` });
    return undefined;
  }
  return raw;
}

function alreadyExists(): ValidationError {
  return new ValidationError([{ resource: RESOURCE, field: 'name', code: 'already_exists' }]);
}

// ---------------------------------------------------------------- repository labels

export async function listLabels(ctx: AppContext, actor: Actor, owner: string, name: string, slice: Slice): Promise<LabelPageOf> {
  const repo = await locateFor(ctx, actor, owner, name, 'pull');
  const { rows, total } = await labelStore.list(ctx.db, repo.id, slice);
  return { repo, page: { items: rows, total } };
}

export async function getLabel(ctx: AppContext, actor: Actor, owner: string, name: string, labelName: string): Promise<LabelAt> {
  const repo = await locateFor(ctx, actor, owner, name, 'pull');
  return { repo, label: await requireLabel(ctx, repo, labelName) };
}

export async function createLabel(ctx: AppContext, actor: Actor, owner: string, name: string, input: LabelInput): Promise<LabelAt> {
  const repo = await locateFor(ctx, actor, owner, name, 'push');
  const errors: FieldError[] = [];
  const labelName = nameOf(input.name ?? null, 'name', errors);
  const color = colorOf(input.color, errors);
  const description = descriptionOf(input.description, errors);
  if (errors.length) throw new ValidationError(errors);
  const label = await inTransaction(ctx, async (tx) => {
    if (await labelStore.findByName(tx.db, repo.id, labelName!)) throw alreadyExists();
    const created = await labelStore.insert(tx.db, repo.id, {
      name: labelName!, color: color ?? NEW_LABEL_COLOR, description: description ?? null, isDefault: false,
    }, nowIso(tx.clock));
    await emit(tx, actor, repo, 'created', created);
    return created;
  }).catch((err: unknown) => {
    // Two concurrent creates of one name: the unique index answers for the loser.
    if (isUniqueViolation(err)) throw alreadyExists();
    throw err;
  });
  return { repo, label };
}

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export async function updateLabel(ctx: AppContext, actor: Actor, owner: string, name: string, labelName: string, input: LabelInput): Promise<LabelAt> {
  const repo = await locateFor(ctx, actor, owner, name, 'push');
  const errors: FieldError[] = [];
  const newName = nameOf(input.new_name ?? input.name, input.new_name !== undefined ? 'new_name' : 'name', errors);
  const color = colorOf(input.color, errors);
  const description = descriptionOf(input.description, errors);
  if (errors.length) throw new ValidationError(errors);
  const label = await inTransaction(ctx, async (tx) => {
    const current = await requireLabel(tx, repo, labelName);
    if (newName !== undefined && newName.toLowerCase() !== current.name.toLowerCase()) {
      if (await labelStore.findByName(tx.db, repo.id, newName)) throw alreadyExists();
    }
    const updated = await labelStore.update(tx.db, current.id, { name: newName, color, description }, nowIso(tx.clock));
    const changes: Record<string, { from: string | null }> = {};
    if (updated.name !== current.name) changes.name = { from: current.name };
    if (updated.color !== current.color) changes.color = { from: current.color };
    if (updated.description !== current.description) changes.description = { from: current.description };
    await emit(tx, actor, repo, 'edited', updated, changes);
    return updated;
  }).catch((err: unknown) => {
    if (isUniqueViolation(err)) throw alreadyExists();
    throw err;
  });
  return { repo, label };
}

export async function deleteLabel(ctx: AppContext, actor: Actor, owner: string, name: string, labelName: string): Promise<void> {
  const repo = await locateFor(ctx, actor, owner, name, 'push');
  await inTransaction(ctx, async (tx) => {
    const label = await requireLabel(tx, repo, labelName);
    await emit(tx, actor, repo, 'deleted', label);
    await labelStore.remove(tx.db, label.id);
  });
}

// ---------------------------------------------------------------- labels on an issue

async function issueLabels(ctx: AppContext, repo: Repo, issueId: number): Promise<LabelsOf> {
  return { repo, labels: (await labelStore.labelsOf(ctx.db, [issueId])).get(issueId) ?? [] };
}

export async function listForIssue(ctx: AppContext, actor: Actor, owner: string, name: string, number: number, slice: Slice): Promise<LabelPageOf> {
  const { repo, issue } = await locateIssue(ctx, actor, owner, name, number);
  const all = (await issueLabels(ctx, repo, issue.id)).labels;
  return { repo, page: { items: all.slice(slice.offset, slice.offset + slice.perPage), total: all.length } };
}

/** Applying labels takes triage access (upstream's triage role exists for this). */
async function locateForLabelling(ctx: AppContext, actor: Actor, owner: string, name: string, number: number) {
  const located = await locateIssue(ctx, actor, owner, name, number);
  if (!canTriageIssues(located.role)) throw new ForbiddenError('Must have triage access to change the labels of an issue.');
  requireWritable(located.repo);
  return located;
}

/** Upstream takes `{labels: [...]}`, a bare array, names or `{name}` objects. */
export function labelsFromBody(body: unknown): string[] {
  const raw = Array.isArray(body) ? body : body && typeof body === 'object' ? (body as { labels?: unknown }).labels : undefined;
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new ValidationError([{ resource: RESOURCE, field: 'labels', code: 'invalid', value: raw }]);
  return labelNames('labels', raw) ?? [];
}

export async function addToIssue(ctx: AppContext, actor: Actor, owner: string, name: string, number: number, names: string[]): Promise<LabelsOf> {
  const { repo, issue } = await locateForLabelling(ctx, actor, owner, name, number);
  if (!names.length) throw new ValidationError([{ resource: RESOURCE, field: 'labels', code: 'missing_field' }]);
  await inTransaction(ctx, (tx) => addLabels(tx, repo, actor, issue, names, false));
  return issueLabels(ctx, repo, issue.id);
}

export async function setForIssue(ctx: AppContext, actor: Actor, owner: string, name: string, number: number, names: string[]): Promise<LabelsOf> {
  const { repo, issue } = await locateForLabelling(ctx, actor, owner, name, number);
  await inTransaction(ctx, (tx) => addLabels(tx, repo, actor, issue, names, true));
  return issueLabels(ctx, repo, issue.id);
}

export async function removeAllFromIssue(ctx: AppContext, actor: Actor, owner: string, name: string, number: number): Promise<void> {
  const { repo, issue } = await locateForLabelling(ctx, actor, owner, name, number);
  await inTransaction(ctx, (tx) => addLabels(tx, repo, actor, issue, [], true));
}

export async function removeFromIssue(ctx: AppContext, actor: Actor, owner: string, name: string, number: number, labelName: string): Promise<LabelsOf> {
  const { repo, issue } = await locateForLabelling(ctx, actor, owner, name, number);
  await inTransaction(ctx, async (tx) => {
    const current = (await labelStore.labelsOf(tx.db, [issue.id])).get(issue.id) ?? [];
    const label = current.find((l) => l.name.toLowerCase() === labelName.toLowerCase());
    if (!label) throw new NotFoundError('Label does not exist');
    await removeLabel(tx, repo, actor, issue, label);
  });
  return issueLabels(ctx, repo, issue.id);
}

export async function listForMilestone(ctx: AppContext, actor: Actor, owner: string, name: string, number: number, slice: Slice): Promise<LabelPageOf> {
  const repo = await locateFor(ctx, actor, owner, name, 'pull');
  const milestone = Number.isSafeInteger(number) ? await milestoneStore.findByNumber(ctx.db, repo.id, number) : null;
  if (!milestone) throw new NotFoundError();
  const { rows, total } = await labelStore.labelsOfMilestone(ctx.db, milestone.id, slice);
  return { repo, page: { items: rows, total } };
}

// ---------------------------------------------------------------- default labels

/** Upstream's default labels, added to a repository when it is created (inside that transaction). */
export async function addDefaultLabels(ctx: AppContext, repositoryId: number): Promise<void> {
  await labelStore.insertMany(ctx.db, repositoryId, DEFAULT_LABELS.map((l) => ({ ...l, isDefault: true })), nowIso(ctx.clock));
}
