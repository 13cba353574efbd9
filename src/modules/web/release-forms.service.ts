// The release and tag forms' data and writes: who is offered them (push access to a
// repository that is not archived, the releases service's own rule), the branches a new
// tag may start from, a release to edit with its assets, and the writes themselves,
// each one call of the releases, release assets or git refs service the API uses, whose
// rules and refusals decide.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import * as commits from '../git-data/commits.service.ts';
import { deleteRef } from '../git-data/git-data.service.ts';
import * as assets from '../releases/release-assets.service.ts';
import { releaseDetails } from '../releases/releases.present.ts';
import * as releases from '../releases/releases.service.ts';
import { generateNotes } from '../releases/release-notes.service.ts';
import { MAKE_LATEST, type MakeLatest, type ReleaseRecord } from '../releases/releases.model.ts';
import type { ReleaseDetail } from '../releases/releases.views.ts';
import { roleAtLeast, type Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';

/** Offered to those the releases service lets write. */
export async function mayWriteReleases(ctx: AppContext, actor: Actor, repo: Repo): Promise<boolean> {
  if (!actor.user || repo.archived) return false;
  return roleAtLeast((await repos.accessTo(ctx, actor, repo)).effective, 'push');
}

/** The repository whose release forms are asked for; like upstream, a 404 to those who may not use them. */
export async function writerRepo(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<Repo> {
  const { repo } = await repos.locate(ctx, actor, owner, name);
  if (!(await mayWriteReleases(ctx, actor, repo))) throw new NotFoundError();
  return repo;
}

/** The repository as anyone who may read it sees it (a refused form is shown again with it). */
export function repoOf(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<repos.Located> {
  return repos.locate(ctx, actor, owner, name);
}

/** Branches a new tag may be made at, the default first (as many as one form shows). */
const MAX_BRANCHES = 100;

export async function branchNames(ctx: AppContext, actor: Actor, owner: string, name: string, repo: Repo): Promise<string[]> {
  // An empty repository has no branches (the API answers 409): the default branch's name is all there is.
  const list = await commits.listBranches(ctx, actor, owner, name, { offset: 0, limit: MAX_BRANCHES }).catch((err: unknown) => {
    if (err instanceof ConflictError) return null;
    throw err;
  });
  const names = list?.branches.map((b) => b.name) ?? [];
  return [repo.defaultBranch, ...names.filter((n) => n !== repo.defaultBranch)];
}

/** A release (a draft too, for writers) with its assets, by its tag (the edit page's address) or id (its forms' posts). */
export async function releaseByTag(ctx: AppContext, actor: Actor, owner: string, name: string, tag: string): Promise<ReleaseDetail> {
  const found = await releases.findReleaseByTag(ctx, actor, owner, name, tag, true);
  if (!found) throw new NotFoundError();
  return (await releaseDetails(ctx, [found]))[0]!;
}

export async function releaseById(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<ReleaseDetail> {
  return (await releaseDetails(ctx, [await releases.getRelease(ctx, actor, owner, name, id)]))[0]!;
}

/** The fields of the new and edit forms, as typed. */
export interface ReleaseFields {
  tag: string;
  target: string;
  name: string;
  body: string;
  draft: boolean;
  prerelease: boolean;
  /** The API's make_latest: `true`, `false` or `legacy` (by date and version); empty: not sent (the API's default, or left as it is). */
  makeLatest: string;
}

/** An emptied name or body is none (upstream then titles the release with its tag). */
function text(v: string): string | null {
  return v === '' ? null : v;
}

/** The form's choice, refused as the API refuses a make_latest it does not know. */
function makeLatestOf(v: string): { make_latest?: MakeLatest } {
  if (v === '') return {};
  const found = MAKE_LATEST.find((m) => m === v);
  if (!found) throw new ValidationError([{ resource: 'Release', field: 'make_latest', code: 'invalid', message: 'Choose whether this is the latest release: yes, no, or by date and version.' }]);
  return { make_latest: found };
}

export function createRelease(ctx: AppContext, actor: Actor, owner: string, name: string, f: ReleaseFields): Promise<ReleaseRecord> {
  return releases.createRelease(ctx, actor, owner, name, {
    tag_name: f.tag, ...(f.target ? { target_commitish: f.target } : {}), name: text(f.name), body: text(f.body), draft: f.draft, prerelease: f.prerelease,
    ...makeLatestOf(f.makeLatest),
  });
}

/**
 * The form with generated release notes (as POST …/releases/generate-notes makes them
 * for its tag and target): the notes below what the body already says, their title when
 * the form has none. Nothing is saved.
 */
export async function withGeneratedNotes(ctx: AppContext, actor: Actor, owner: string, name: string, f: ReleaseFields): Promise<ReleaseFields> {
  const notes = await generateNotes(ctx, actor, owner, name, { tag_name: f.tag, ...(f.target ? { target_commitish: f.target } : {}) });
  return { ...f, name: f.name || notes.name, body: f.body.trim() ? `${f.body.trimEnd()}\n\n${notes.body}` : notes.body };
}

export function updateRelease(ctx: AppContext, actor: Actor, owner: string, name: string, id: number, f: ReleaseFields): Promise<ReleaseRecord> {
  return releases.updateRelease(ctx, actor, owner, name, id, {
    tag_name: f.tag, ...(f.target ? { target_commitish: f.target } : {}), name: text(f.name), body: text(f.body), draft: f.draft, prerelease: f.prerelease,
    ...makeLatestOf(f.makeLatest),
  });
}

export function deleteRelease(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<void> {
  return releases.deleteRelease(ctx, actor, owner, name, id);
}

export interface UploadFields {
  /** The asset's name; the chosen file's name when left empty. */
  name: string;
  label: string;
  file: { filename: string; contentType: string; bytes: Buffer } | null;
}

export function uploadAsset(ctx: AppContext, actor: Actor, owner: string, name: string, releaseId: number, f: UploadFields) {
  const assetName = f.name.trim() || f.file?.filename || '';
  return assets.uploadAsset(ctx, actor, owner, name, releaseId, {
    name: assetName, ...(f.label ? { label: f.label } : {}), ...(f.file ? { contentType: f.file.contentType } : {}), bytes: f.file?.bytes ?? Buffer.alloc(0),
  });
}

/** The release an asset belongs to (for the page its refusal is shown on), and its deletion. */
export async function assetRelease(ctx: AppContext, actor: Actor, owner: string, name: string, assetId: number): Promise<number> {
  return (await assets.getAsset(ctx, actor, owner, name, assetId)).release.id;
}

export function deleteAsset(ctx: AppContext, actor: Actor, owner: string, name: string, assetId: number): Promise<void> {
  return assets.deleteAsset(ctx, actor, owner, name, assetId);
}

/** A tag's deletion, as DELETE …/git/refs/tags/{tag} (push access; a protected tag refused). */
export function deleteTag(ctx: AppContext, actor: Actor, owner: string, name: string, tag: string): Promise<void> {
  return deleteRef(ctx, actor, owner, name, `tags/${tag}`);
}
