// Releases: create, read, update, delete, with upstream's rules — one release per tag,
// the tag made when a release is published, drafts seen only by writers, the latest
// release chosen by make_latest — and the release webhook events of each change.
import { inTransaction, type AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import { requireMaxLength, TEXT_LIMITS } from '../../domain/text-limits.ts';
import { recordEvent } from '../../events/outbox.ts';
import type { GitRepo } from '../git-data/git-data.repository.ts';
import type { Repo } from '../repos/repos.model.ts';
import { deleteReactionsOf } from '../reactions/reactions.subjects.ts';
import * as users from '../users/users.service.ts';
import { forReading, forWriting, requireRelease } from './releases.access.ts';
import type { MakeLatest, Release, ReleaseRecord } from './releases.model.ts';
import { releaseDetails } from './releases.present.ts';
import * as files from './release-asset-files.ts';
import { notesFor } from './release-notes.service.ts';
import { ensureTag, requireTagName, resolveTarget, RESOURCE, tagCommit } from './release-tags.ts';
import * as store from './releases.store.ts';
import { releaseEventPayload } from './releases.views.ts';

export type ReleaseOrder = store.ReleaseOrder;

function organizationOf(repo: Repo): number | null {
  return repo.owner.type === 'Organization' ? repo.ownerId : null;
}

/** Records `actions` of the release (in this order), each with the release as it now is. */
type Changes = Record<string, { from: unknown } | { to: unknown }>;

async function emit(tx: AppContext, actorId: number, record: ReleaseRecord, actions: readonly string[], changes?: Changes): Promise<void> {
  if (!actions.length) return;
  const [detail] = await releaseDetails(tx, [record]);
  for (const action of actions) {
    await recordEvent(tx, {
      event: 'release', action, repositoryId: record.repo.id, organizationId: organizationOf(record.repo), actorId,
      payload: releaseEventPayload(tx.urls, detail!, action === 'edited' ? changes : undefined),
    });
  }
}

/** What publishing a release announces: published, then released or prereleased. */
function publishActions(prerelease: boolean): string[] {
  return ['published', prerelease ? 'prereleased' : 'released'];
}

function validateText(input: { name?: string | null; body?: string | null }): void {
  requireMaxLength(RESOURCE, 'name', input.name, TEXT_LIMITS.title);
  requireMaxLength(RESOURCE, 'body', input.body, 125_000);
}

function alreadyExists(): ValidationError {
  return new ValidationError([{ resource: RESOURCE, field: 'tag_name', code: 'already_exists' }]);
}

/** A release of the tag written meanwhile (the unique index saw it): the same 422. */
function duplicateTag(err: unknown): never {
  throw store.isDuplicate(err) ? alreadyExists() : err;
}

// ---------------------------------------------------------------- read

export async function listReleases(
  ctx: AppContext, actor: Actor, owner: string, name: string, slice: Slice, order?: ReleaseOrder,
): Promise<Page<ReleaseRecord>> {
  const r = await forReading(ctx, actor, owner, name);
  const filter = { withDrafts: r.seesDrafts };
  const [rows, total] = await Promise.all([
    store.listReleases(ctx.db, r.repo.id, filter, slice, order), store.countReleases(ctx.db, r.repo.id, filter),
  ]);
  return { items: rows.map((release) => ({ repo: r.repo, release })), total };
}

export async function getRelease(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<ReleaseRecord> {
  const r = await forReading(ctx, actor, owner, name);
  return { repo: r.repo, release: await requireRelease(ctx, r, id) };
}

/** The latest published full release (make_latest honoured), or 404. */
export async function getLatestRelease(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<ReleaseRecord> {
  const found = await findLatestRelease(ctx, actor, owner, name);
  if (!found) throw new NotFoundError();
  return found;
}

export async function findLatestRelease(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<ReleaseRecord | null> {
  const r = await forReading(ctx, actor, owner, name);
  const release = await store.findLatest(ctx.db, r.repo.id);
  return release ? { repo: r.repo, release } : null;
}

/** The published release of a tag (upstream does not find drafts by tag), or 404. */
export async function getReleaseByTag(ctx: AppContext, actor: Actor, owner: string, name: string, tag: string): Promise<ReleaseRecord> {
  const found = await findReleaseByTag(ctx, actor, owner, name, tag);
  if (!found) throw new NotFoundError();
  return found;
}

/** GraphQL's release(tagName:): drafts too for writers. */
export async function findReleaseByTag(ctx: AppContext, actor: Actor, owner: string, name: string, tag: string, withDrafts = false): Promise<ReleaseRecord | null> {
  const r = await forReading(ctx, actor, owner, name);
  const release = await store.findReleaseByTag(ctx.db, r.repo.id, tag);
  if (!release || (release.draft && !(withDrafts && r.seesDrafts))) return null;
  return { repo: r.repo, release };
}

/** Releases by id; no caller check (the caller checks their repositories and drafts). */
export function releasesByIds(ctx: AppContext, ids: readonly number[]): Promise<Release[]> {
  return store.findReleasesByIds(ctx.db, ids);
}

/** The latest release id of each repository (GraphQL's isLatest). */
export function latestReleaseIds(ctx: AppContext, repositoryIds: readonly number[]): Promise<Map<number, number>> {
  return store.latestIdsOf(ctx.db, repositoryIds);
}

// ---------------------------------------------------------------- create

export interface CreateReleaseInput {
  tag_name: string;
  target_commitish?: string;
  name?: string | null;
  body?: string | null;
  draft?: boolean;
  prerelease?: boolean;
  generate_release_notes?: boolean;
  make_latest?: MakeLatest;
}

/** The order making a release latest now: above every other of the repository. */
async function nextLatestOrder(tx: AppContext, repositoryId: number): Promise<number> {
  return (await store.maxLatestOrder(tx.db, repositoryId)) + 1;
}

/** Checks the tag or, when the tag does not exist yet, the commitish it will be made at. */
async function checkTarget(r: GitRepo, tag: string, target: string): Promise<void> {
  if (!(await tagCommit(r.dir, tag))) await resolveTarget(r.dir, target);
}

export async function createRelease(ctx: AppContext, actor: Actor, owner: string, name: string, input: CreateReleaseInput): Promise<ReleaseRecord> {
  const r = await forWriting(ctx, actor, owner, name);
  requireTagName(input.tag_name);
  validateText(input);
  const author = await users.getOwnAccount(ctx, actor);
  const target = input.target_commitish ?? r.repo.defaultBranch;
  if (await store.findReleaseByTag(ctx.db, r.repo.id, input.tag_name)) throw alreadyExists();
  await checkTarget(r, input.tag_name, target);
  const draft = input.draft ?? false;
  const prerelease = input.prerelease ?? false;
  let { name: title = null, body = null } = input;
  if (input.generate_release_notes) {
    const notes = await notesFor(ctx, r, { tag_name: input.tag_name, target_commitish: target });
    title ??= notes.name;
    body = body ? `${body}\n\n${notes.body}` : notes.body;
  }
  if (!draft) await ensureTag(ctx, actor, r, input.tag_name, target);
  const makeLatest = input.make_latest ?? 'true';
  return inTransaction(ctx, async (tx) => {
    if (await store.findReleaseByTag(tx.db, r.repo.id, input.tag_name)) throw alreadyExists();
    const now = nowIso(tx.clock);
    const release = await store.insertRelease(tx.db, {
      repositoryId: r.repo.id, tagName: input.tag_name, targetCommitish: target, name: title, body, draft, prerelease,
      makeLatest, latestOrder: !draft && makeLatest !== 'false' ? await nextLatestOrder(tx, r.repo.id) : 0,
      authorId: author.id, publishedAt: draft ? null : now,
    }, now).catch(duplicateTag);
    const record = { repo: r.repo, release };
    await emit(tx, author.id, record, draft ? ['created'] : ['created', ...publishActions(prerelease)]);
    return record;
  });
}

// ---------------------------------------------------------------- update and delete

export interface UpdateReleaseInput {
  tag_name?: string;
  target_commitish?: string;
  name?: string | null;
  body?: string | null;
  draft?: boolean;
  prerelease?: boolean;
  make_latest?: MakeLatest;
}

export async function updateRelease(
  ctx: AppContext, actor: Actor, owner: string, name: string, id: number, input: UpdateReleaseInput,
): Promise<ReleaseRecord> {
  const r = await forWriting(ctx, actor, owner, name);
  const before = await requireRelease(ctx, { repo: r.repo, seesDrafts: true }, id);
  if (input.tag_name !== undefined) requireTagName(input.tag_name);
  validateText(input);
  const editor = await users.getOwnAccount(ctx, actor);
  const tag = input.tag_name ?? before.tagName;
  const target = input.target_commitish ?? before.targetCommitish;
  if (tag !== before.tagName && await store.findReleaseByTag(ctx.db, r.repo.id, tag)) throw alreadyExists();
  if (tag !== before.tagName || input.target_commitish !== undefined) await checkTarget(r, tag, target);
  const draft = input.draft ?? before.draft;
  const prerelease = input.prerelease ?? before.prerelease;
  if (!draft) await ensureTag(ctx, actor, r, tag, target);
  return inTransaction(ctx, async (tx) => {
    const now = nowIso(tx.clock);
    const publishing = before.draft && !draft;
    const makeLatest = input.make_latest ?? before.makeLatest;
    // Made latest now: when published, when a prerelease becomes a full release (both
    // are new releases to its readers), or when asked again.
    const released = !draft && before.prerelease && !prerelease;
    const promote = !draft && makeLatest !== 'false' && (publishing || released || input.make_latest === 'true');
    const release = await store.updateRelease(tx.db, before.id, {
      tagName: tag, targetCommitish: target, draft, prerelease, makeLatest,
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.body !== undefined ? { body: input.body } : {}),
      ...(promote ? { latestOrder: await nextLatestOrder(tx, r.repo.id) } : {}),
      ...(publishing ? { publishedAt: now } : {}),
      ...(!before.draft && draft ? { publishedAt: null } : {}),
    }, now).catch(duplicateTag);
    const record = { repo: r.repo, release };
    const changes: Changes = {};
    // The published payload's `from` is a string: an absent name or body was empty.
    if (input.name !== undefined && input.name !== before.name) changes.name = { from: before.name ?? '' };
    if (input.body !== undefined && input.body !== before.body) changes.body = { from: before.body ?? '' };
    if (tag !== before.tagName) changes.tag_name = { from: before.tagName };
    // Upstream's make_latest change says where it went ({ to }), unlike the others.
    if (promote && input.make_latest === 'true') changes.make_latest = { to: true };
    const actions: string[] = [];
    if (Object.keys(changes).length || prerelease !== before.prerelease) actions.push('edited');
    if (publishing) actions.push(...publishActions(prerelease));
    else if (!before.draft && draft) actions.push('unpublished');
    else if (!draft && before.prerelease && !prerelease) actions.push('released');
    else if (!draft && !before.prerelease && prerelease) actions.push('prereleased');
    await emit(tx, editor.id, record, actions, changes);
    return record;
  });
}

/** Deletes the release and its assets' files; the tag stays (as upstream). */
export async function deleteRelease(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<void> {
  const r = await forWriting(ctx, actor, owner, name);
  const release = await requireRelease(ctx, { repo: r.repo, seesDrafts: true }, id);
  const editor = await users.getOwnAccount(ctx, actor);
  const assetIds = await inTransaction(ctx, async (tx) => {
    const ids = await store.assetIdsOf(tx.db, release.id);
    // The payload shows the release as it was, assets included.
    await emit(tx, editor.id, { repo: r.repo, release }, ['deleted']);
    await store.removeRelease(tx.db, release.id);
    await deleteReactionsOf(tx, 'release', [release.id]);
    return ids;
  });
  await files.remove(ctx, r.repo.id, assetIds);
}
