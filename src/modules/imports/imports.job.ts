// One import's steps, run by the ImportWorker: detecting → importing → mapping → pushing
// → complete, or a stop that waits for the user (detection_*, auth_failed) or error.
// Every write is guarded by the import's generation: a move of the user meanwhile
// (cancel, restart, credentials, a mapping) makes it a no-op and stops the job.
import fs from 'node:fs';
import path from 'node:path';
import { inTransaction, type AppContext } from '../../context.ts';
import { userActor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { credentialScope, type CredentialScope } from '../../git/import-credentials.ts';
import { convertRefs, countCommits, identities, largeFiles, rawRefs } from '../../git/import-history.ts';
import { ToolAborted } from '../../git/import-process.ts';
import { pushImported } from '../../git/import-push.ts';
import { identityKey, rewriteHistory, type LargeFilePolicy } from '../../git/import-rewrite.ts';
import {
  candidates, FetchFailed, fetchGit, fetchHg, fetchSvn, probe, rawGitDir, svnProjects,
  type ImportTarget, type ImportVcs, type StepTools, type SvnProject,
} from '../../git/import-sources.ts';
import { lfsDir } from '../../git/lfs-store.ts';
import { protectPush } from '../branch-protection/protection.push.ts';
import { startPush } from '../git-http/git-http.push.ts';
import * as repos from '../repos/repos.service.ts';
import * as users from '../users/users.service.ts';
import { checkTarget } from './imports.guard.ts';
import type { ImportStep, ProjectChoice, SourceImport } from './imports.model.ts';
import { openCredentials, recordImportEvent } from './imports.service.ts';
import * as store from './imports.store.ts';

/** The import was moved, replaced or cancelled meanwhile: its job stops quietly. */
export class Superseded extends Error {}

export function workDir(ctx: AppContext, repositoryId: number): string {
  return path.join(ctx.config.dataDir, 'imports', String(repositoryId));
}

const STEP_NAMES: Record<ImportStep, string> = { detect: 'detecting', import: 'importing', map: 'mapping', push: 'pushing' };
const PROGRESS_EVERY_MS = 200;

class Job {
  private lastProgress = 0;

  constructor(private readonly ctx: AppContext, private imp: SourceImport, private readonly signal: AbortSignal) {}

  private async set(changes: store.ImportChanges): Promise<void> {
    const ok = await store.advance(this.ctx.db, this.imp.repositoryId, this.imp.generation, { ...changes, updated_at: nowIso(this.ctx.clock) });
    if (!ok) throw new Superseded();
    const fresh = await store.find(this.ctx.db, this.imp.repositoryId);
    if (!fresh || fresh.generation !== this.imp.generation) throw new Superseded();
    this.imp = fresh;
  }

  /** Progress is written at most every PROGRESS_EVERY_MS; a failed write (superseded) aborts the tools. */
  private progress(changes: store.ImportChanges): void {
    const now = Date.now();
    if (now - this.lastProgress < PROGRESS_EVERY_MS) return;
    this.lastProgress = now;
    store.advance(this.ctx.db, this.imp.repositoryId, this.imp.generation, changes).catch(() => undefined);
  }

  async run(): Promise<void> {
    while (this.imp.nextStep && !this.signal.aborted) {
      const step = this.imp.nextStep;
      try {
        await this.step(step);
      } catch (err) {
        if (err instanceof Superseded || err instanceof ToolAborted || this.signal.aborted) throw err;
        await this.fail(step, err);
        return;
      }
    }
  }

  private async step(step: ImportStep): Promise<void> {
    // Checked again before each connection: what the host resolves to may have changed.
    const checked = step === 'detect' || step === 'import' ? await checkTarget(this.ctx, this.imp.vcsUrl) : null;
    if (checked && !checked.ok) throw new Error(checked.message);
    const target = checked?.target ?? { url: this.imp.vcsUrl, pin: null };
    const creds = credentialScope(path.join(workDir(this.ctx, this.imp.repositoryId), 'secret'), openCredentials(this.ctx, this.imp.credentials));
    const tools: StepTools = { creds, signal: this.signal, timeoutMs: this.ctx.config.imports.stepTimeoutSeconds * 1000 };
    try {
      if (step === 'detect') await this.detect(target, tools);
      else if (step === 'import') await this.importRaw(target, tools);
      else if (step === 'map') await this.map();
      else await this.push(creds);
    } finally {
      creds.cleanup();
    }
  }

  private async fail(step: ImportStep, err: unknown): Promise<void> {
    if (err instanceof FetchFailed && err.auth) {
      await this.set({ status: 'auth_failed', status_text: 'Authentication failed: the source refused the credentials (or needs some); send vcs_username and vcs_password.', next_step: null, lease_until: null });
      return;
    }
    const message = err instanceof Error ? err.message : String(err);
    this.ctx.log.warn({ repositoryId: this.imp.repositoryId, step }, `source import failed: ${message}`);
    await inTransaction(this.ctx, async (tx) => {
      const ok = await store.advance(tx.db, this.imp.repositoryId, this.imp.generation, {
        status: 'error', failed_step: STEP_NAMES[step], status_text: message.slice(0, 500), next_step: null, credentials: null,
        lease_until: null, updated_at: nowIso(tx.clock),
      });
      if (!ok) throw new Superseded();
      await recordImportEvent(tx, this.imp, 'failure');
    });
  }

  // ---------------------------------------------------------------- detecting

  private async detect(target: ImportTarget, tools: StepTools): Promise<void> {
    let needsAuth = false;
    for (const vcs of candidates(new URL(target.url))) {
      const answer = await probe(vcs, target, tools);
      if (answer === 'auth') needsAuth = true;
      if (answer !== 'found') continue;
      if (vcs === 'subversion') {
        const projects = await svnProjects(target, tools);
        if (projects === 'auth') {
          needsAuth = true;
          continue;
        }
        if (projects.length > 1) {
          const choices: ProjectChoice[] = projects.map((p) => ({ vcs: 'subversion', tfvc_project: null, human_name: p.path, path: p.path }));
          await this.set({ vcs, status: 'detection_found_multiple', status_text: 'Several projects found: choose one of project_choices.', project_choices: JSON.stringify(choices), next_step: null, lease_until: null });
          return;
        }
        await this.set({ vcs, project_path: projects[0]!.path, status: 'importing', status_text: 'Importing', percent: 0, next_step: 'import' });
        return;
      }
      await this.set({ vcs, status: 'importing', status_text: 'Importing', percent: 0, next_step: 'import' });
      return;
    }
    if (needsAuth) {
      await this.set({ status: 'detection_needs_auth', status_text: 'The source needs authentication: send vcs_username and vcs_password.', next_step: null, lease_until: null });
    } else {
      await this.set({ status: 'detection_found_nothing', status_text: 'No git, Subversion or Mercurial repository found at vcs_url: cancel and start again with the right URL.', next_step: null, lease_until: null });
    }
  }

  // ---------------------------------------------------------------- importing

  private async importRaw(target: ImportTarget, tools: StepTools): Promise<void> {
    const vcs = this.imp.vcs;
    if (vcs === 'tfvc' || vcs === null) throw new Error('Team Foundation Version Control (tfvc) sources are not supported by Wharf.');
    const dir = workDir(this.ctx, this.imp.repositoryId);
    fs.mkdirSync(dir, { recursive: true });
    const progress = {
      percent: (value: number) => this.progress({ percent: value }),
      commits: (count: number) => this.progress({ commit_count: count }),
    };
    if (vcs === 'git') await fetchGit(dir, target, tools, progress);
    else if (vcs === 'mercurial') await fetchHg(dir, target, tools, progress);
    else await fetchSvn(dir, target, await this.svnProject(target, tools), tools, progress);
    const raw = rawGitDir(dir, vcs);
    if (dirSize(raw) > this.ctx.config.imports.maxBytes) throw new Error(`the source is larger than the ${this.ctx.config.imports.maxBytes} bytes allowed (WHARF_IMPORT_MAX_BYTES)`);
    const moves = convertRefs(vcs, await rawRefs(raw, tools));
    const sources = moves.map((m) => m.from);
    const commitCount = await countCommits(raw, sources, tools);
    const found = await identities(raw, sources, tools);
    const large = await largeFiles(raw, moves, this.ctx.config.imports.largeFileBytes, tools);
    await inTransaction(this.ctx, async (tx) => {
      const authorsCount = await store.addAuthors(tx.db, this.imp.repositoryId, found.map((f) => ({ remoteId: f.email, remoteName: f.name })));
      await store.replaceLargeFiles(tx.db, this.imp.repositoryId, large);
      const ok = await store.advance(tx.db, this.imp.repositoryId, this.imp.generation, {
        status: 'mapping', status_text: 'Mapping authors and branches', percent: 100, commit_count: commitCount, authors_count: authorsCount,
        has_large_files: large.length ? 1 : 0, large_files_count: large.length, large_files_size: large.reduce((n, f) => n + f.size, 0),
        next_step: 'map', updated_at: nowIso(tx.clock),
      });
      if (!ok) throw new Superseded();
    });
    this.imp = (await store.find(this.ctx.db, this.imp.repositoryId)) ?? this.imp;
  }

  /** The Subversion project: the one chosen, or the only one at the URL. */
  private async svnProject(target: ImportTarget, tools: StepTools): Promise<SvnProject> {
    const projects = await svnProjects(target, tools);
    if (projects === 'auth') throw new FetchFailed('svn: authentication failed', true);
    if (this.imp.projectPath !== null) {
      return projects.find((p) => p.path === this.imp.projectPath) ?? { path: this.imp.projectPath, standard: true };
    }
    if (projects.length > 1) {
      const choices: ProjectChoice[] = projects.map((p) => ({ vcs: 'subversion', tfvc_project: null, human_name: p.path, path: p.path }));
      await this.set({ status: 'detection_found_multiple', status_text: 'Several projects found: choose one of project_choices.', project_choices: JSON.stringify(choices), next_step: null, lease_until: null });
      throw new Superseded();
    }
    return projects[0]!;
  }

  // ---------------------------------------------------------------- mapping

  private async map(): Promise<void> {
    const vcs = this.imp.vcs as ImportVcs;
    const dir = workDir(this.ctx, this.imp.repositoryId);
    const bounds = { signal: this.signal, timeoutMs: this.ctx.config.imports.stepTimeoutSeconds * 1000 };
    const raw = rawGitDir(dir, vcs);
    // A raw history lost (the work directory removed): fetched again.
    if (!fs.existsSync(raw)) {
      await this.set({ status: 'importing', status_text: 'Importing', percent: 0, next_step: 'import' });
      return;
    }
    const moves = convertRefs(vcs, await rawRefs(raw, bounds));
    const authors = new Map((await store.listAuthors(this.ctx.db, this.imp.repositoryId, 0))
      .filter((a) => a.email !== a.remoteId || a.name !== a.remoteName)
      .map((a) => [identityKey(a.remoteName, a.remoteId), { name: a.name, email: a.email }]));
    const policy: LargeFilePolicy = this.imp.useLfs === 'opt_out' ? 'drop' : this.imp.useLfs === 'opt_in' ? 'pointer' : 'keep';
    await rewriteHistory({
      rawGitDir: raw, finalGitDir: path.join(dir, 'final.git'), moves, authors,
      largeFileBytes: this.ctx.config.imports.largeFileBytes, largeFiles: policy, lfsDir: lfsDir(this.ctx.config.dataDir, this.imp.repositoryId), ...bounds,
    });
    await this.set({ status: 'pushing', status_text: 'Pushing', push_percent: 0, next_step: 'push' });
  }

  // ---------------------------------------------------------------- pushing

  private async push(creds: CredentialScope): Promise<void> {
    const repo = (await repos.reposByIds(this.ctx, [this.imp.repositoryId]))[0];
    if (!repo) throw new Superseded();
    const account = this.imp.actorId === null ? repo.owner : ((await users.accountsByIds(this.ctx, [this.imp.actorId])).get(this.imp.actorId) ?? repo.owner);
    const actor = userActor({ id: account.id, login: account.login, siteAdmin: account.siteAdmin }, 'token', 0, [], '');
    const dir = workDir(this.ctx, this.imp.repositoryId);
    const final = path.join(dir, 'final.git');
    if (!fs.existsSync(final)) {
      await this.set({ status: 'mapping', status_text: 'Mapping authors and branches', next_step: 'map' });
      return;
    }
    // The same branch protection as a push over HTTP or SSH, required signatures verified too.
    const protectedPush = await protectPush(this.ctx, actor, repo);
    const env = { ...protectedPush.env, HOME: creds.env.HOME! };
    // Journaled and recorded as every push is: push events, search indexing, pushed_at.
    const journaled = await startPush(this.ctx, actor, repo);
    try {
      await pushImported(final, repos.gitDir(this.ctx, repo), {
        env, signal: this.signal, timeoutMs: this.ctx.config.imports.stepTimeoutSeconds * 1000,
        percent: (value) => this.progress({ push_percent: value }),
      });
    } finally {
      protectedPush.close();
      await journaled.settle();
    }
    await inTransaction(this.ctx, async (tx) => {
      const ok = await store.advance(tx.db, this.imp.repositoryId, this.imp.generation, {
        status: 'complete', status_text: 'Done', push_percent: 100, next_step: null, credentials: null, lease_until: null,
        updated_at: nowIso(tx.clock),
      });
      if (!ok) throw new Superseded();
      await recordImportEvent(tx, this.imp, 'success');
    });
    this.imp = { ...this.imp, status: 'complete', nextStep: null };
    fs.rmSync(final, { recursive: true, force: true });
  }
}

function dirSize(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

/** Runs the import's steps until it waits for the user, ends, or is stopped. */
export async function runImport(ctx: AppContext, imp: SourceImport, signal: AbortSignal): Promise<void> {
  await new Job(ctx, imp, signal).run();
}
