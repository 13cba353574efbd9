// Source imports: starting one (PUT), reading it, the user's moves of the spec's status
// table (PATCH: credentials, a project choice, or a restart), cancelling (DELETE), the
// commit authors and their mapping, the large files and the LFS preference. The work
// itself runs in the background (imports.worker.ts); a move bumps the import's
// generation, which stops the job of the old one, and queues the next step.
import { inTransaction, type AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import { recordEvent } from '../../events/outbox.ts';
import { wakeWorkers } from '../../events/wake.ts';
import type { SourceCredentials } from '../../git/import-credentials.ts';
import * as git from '../../git/repository.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import { checkTarget } from './imports.guard.ts';
import type { ImportAuthor, ImportLargeFile, ImportStep, LfsPreference, ProjectChoice, SourceImport, SourceVcs } from './imports.model.ts';
import { interrupt } from './imports.running.ts';
import * as store from './imports.store.ts';

const CREDENTIALS_PURPOSE = 'source_imports.credentials';

export interface Located {
  repo: Repo;
  imp: SourceImport;
}

export function openCredentials(ctx: AppContext, sealed: string | null): SourceCredentials {
  if (sealed === null) return { username: null, password: null };
  return JSON.parse(ctx.secrets.open(sealed, CREDENTIALS_PURPOSE)) as SourceCredentials;
}

function sealCredentials(ctx: AppContext, username: string | undefined, password: string | undefined): string | null {
  if (username === undefined && password === undefined) return null;
  return ctx.secrets.seal(JSON.stringify({ username: username ?? null, password: password ?? null }), CREDENTIALS_PURPOSE);
}

/** The repository_import webhook event (success, cancelled, failure). */
export async function recordImportEvent(ctx: AppContext, imp: SourceImport, status: 'success' | 'cancelled' | 'failure'): Promise<void> {
  const repo = (await repos.reposByIds(ctx, [imp.repositoryId]))[0];
  await recordEvent(ctx, {
    event: 'repository_import', repositoryId: imp.repositoryId, actorId: imp.actorId,
    organizationId: repo?.owner.type === 'Organization' ? repo.ownerId : null, payload: { status },
  });
}

async function located(ctx: AppContext, actor: Actor, owner: string, name: string, role: 'push' | 'admin'): Promise<Located> {
  const { repo } = await repos.locate(ctx, actor, owner, name, role);
  const imp = await store.find(ctx.db, repo.id);
  if (!imp) throw new NotFoundError();
  return { repo, imp };
}

export async function getImport(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<Located> {
  return located(ctx, actor, owner, name, 'push');
}

export interface StartInput {
  vcs_url: string;
  vcs?: SourceVcs;
  vcs_username?: string;
  vcs_password?: string;
  tfvc_project?: string;
}

function invalid(field: string, message: string): ValidationError {
  return new ValidationError([{ resource: 'Import', field, code: 'invalid', message }], message);
}

export async function startImport(ctx: AppContext, actor: Actor, owner: string, name: string, input: StartInput): Promise<Located> {
  const { repo } = await repos.locate(ctx, actor, owner, name, 'admin');
  const checked = await checkTarget(ctx, input.vcs_url);
  if (!checked.ok) throw invalid('vcs_url', checked.message);
  if ((await git.listRefs(repos.gitDir(ctx, repo))).length > 0) {
    throw new ValidationError([{ resource: 'Import', field: 'repository', code: 'custom', message: 'The repository is not empty: imports go into empty repositories only.' }], 'Validation Failed');
  }
  const existing = await store.find(ctx.db, repo.id);
  if (existing?.nextStep) throw new ValidationError([{ resource: 'Import', field: 'repository', code: 'custom', message: 'An import is already in progress: cancel it first.' }]);
  const now = nowIso(ctx.clock);
  const step: ImportStep = input.vcs ? 'import' : 'detect';
  await inTransaction(ctx, async (tx) => {
    await store.replace(tx.db, {
      repository_id: repo.id, actor_id: actor.user?.id ?? null, vcs: input.vcs ?? null, vcs_url: input.vcs_url,
      tfvc_project: input.tfvc_project ?? null, project_path: null,
      status: input.vcs ? 'importing' : 'detecting', status_text: input.vcs ? 'Importing' : 'Detecting source type',
      failed_step: null, percent: input.vcs ? 0 : null, commit_count: null, push_percent: null, authors_count: null,
      project_choices: null, credentials: sealCredentials(tx, input.vcs_username, input.vcs_password),
      next_step: step, lease_until: null, created_at: now, updated_at: now,
    });
    wakeWorkers(tx);
  });
  return { repo, imp: (await store.find(ctx.db, repo.id))! };
}

export interface UpdateInput {
  vcs_username?: string;
  vcs_password?: string;
  vcs?: string;
  tfvc_project?: string | null;
  human_name?: string;
}

/** The spec's PATCH moves: credentials → detecting; a project choice → importing; nothing → restarted. */
export async function updateImport(ctx: AppContext, actor: Actor, owner: string, name: string, input: UpdateInput): Promise<Located> {
  const { repo, imp } = await located(ctx, actor, owner, name, 'admin');
  const now = nowIso(ctx.clock);
  let changes: store.ImportChanges;
  if (input.vcs_username !== undefined || input.vcs_password !== undefined) {
    changes = {
      credentials: sealCredentials(ctx, input.vcs_username, input.vcs_password),
      status: 'detecting', status_text: 'Detecting source type', failed_step: null, next_step: 'detect', project_choices: null,
    };
  } else if (input.vcs !== undefined || input.human_name !== undefined || input.tfvc_project !== undefined) {
    const choice = (imp.projectChoices ?? []).find((c: ProjectChoice) => c.human_name === input.human_name
      && (input.vcs === undefined || c.vcs === input.vcs) && (input.tfvc_project === undefined || c.tfvc_project === input.tfvc_project));
    if (imp.status !== 'detection_found_multiple' || !choice) throw invalid('human_name', 'Choose one of the import\'s project_choices.');
    changes = {
      vcs: choice.vcs, project_path: choice.path, tfvc_project: choice.tfvc_project,
      status: 'importing', status_text: 'Importing', percent: 0, failed_step: null, next_step: 'import',
    };
  } else {
    // Restarted: from detection when the type was never found, else from the fetch.
    const step: ImportStep = imp.vcs === null || imp.status.startsWith('detection') ? 'detect' : 'import';
    changes = {
      status: step === 'detect' ? 'detecting' : 'importing', status_text: step === 'detect' ? 'Detecting source type' : 'Importing',
      failed_step: null, percent: step === 'import' ? 0 : null, push_percent: null, next_step: step,
    };
  }
  await inTransaction(ctx, async (tx) => {
    await store.move(tx.db, repo.id, { ...changes, updated_at: now });
    wakeWorkers(tx);
  });
  interrupt(repo.id);
  return { repo, imp: (await store.find(ctx.db, repo.id))! };
}

export async function cancelImport(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<void> {
  const { repo, imp } = await located(ctx, actor, owner, name, 'admin');
  await inTransaction(ctx, async (tx) => {
    await store.remove(tx.db, repo.id);
    if (imp.status !== 'complete') await recordImportEvent(tx, imp, 'cancelled');
  });
  interrupt(repo.id);
}

export async function listAuthors(ctx: AppContext, actor: Actor, owner: string, name: string, since: number): Promise<Located & { authors: ImportAuthor[] }> {
  const l = await located(ctx, actor, owner, name, 'push');
  return { ...l, authors: await store.listAuthors(ctx.db, l.repo.id, since) };
}

/** Queues the mapping again when the history was already mapped, so a change reaches the repository. */
async function remapIfMapped(tx: AppContext, imp: SourceImport): Promise<boolean> {
  if (!['mapping', 'pushing', 'complete'].includes(imp.status)) return false;
  await store.move(tx.db, imp.repositoryId, { status: 'mapping', status_text: 'Mapping authors and branches', push_percent: null, next_step: 'map', updated_at: nowIso(tx.clock) });
  wakeWorkers(tx);
  return true;
}

export async function mapAuthor(ctx: AppContext, actor: Actor, owner: string, name: string, authorId: number, input: { email?: string; name?: string }): Promise<Located & { author: ImportAuthor }> {
  const { repo, imp } = await located(ctx, actor, owner, name, 'admin');
  const author = await store.findAuthor(ctx.db, repo.id, authorId);
  if (!author) throw new NotFoundError();
  for (const [field, value] of Object.entries(input)) {
    if (typeof value === 'string' && (/[<>\n\r\0]/.test(value) || (field === 'email' && !value.trim()))) throw invalid(field, `${field} may not be empty or hold <, > or line breaks`);
  }
  const moved = await inTransaction(ctx, async (tx) => {
    await store.updateAuthor(tx.db, author.id, input);
    return remapIfMapped(tx, imp);
  });
  if (moved) interrupt(repo.id);
  return { repo, imp, author: (await store.findAuthor(ctx.db, repo.id, authorId))! };
}

export async function listLargeFiles(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<ImportLargeFile[]> {
  const { repo } = await located(ctx, actor, owner, name, 'push');
  return store.listLargeFiles(ctx.db, repo.id);
}

export async function setLfsPreference(ctx: AppContext, actor: Actor, owner: string, name: string, useLfs: Exclude<LfsPreference, 'undecided'>): Promise<Located> {
  const { repo, imp } = await located(ctx, actor, owner, name, 'admin');
  const moved = await inTransaction(ctx, async (tx) => {
    await store.setUseLfs(tx.db, repo.id, useLfs);
    return imp.hasLargeFiles && imp.useLfs !== useLfs && remapIfMapped(tx, imp);
  });
  if (moved) interrupt(repo.id);
  return { repo, imp: (await store.find(ctx.db, repo.id))! };
}

/** Source imports with a step waiting for a worker that may be taken now (GET /metrics). */
export function countWaitingImports(ctx: AppContext): Promise<number> {
  return store.countRunnable(ctx.db, nowIso(ctx.clock));
}
