// Source archives of a ref (GET …/tarball/{ref}, …/zipball/{ref}, a release's
// zipball_url and tarball_url): as upstream, the API answers with an address on the
// download host (its codeload), and that address streams the tree of the commit the
// ref named, made by git archive. Read access, as the repository.
//
// A private repository's address carries a signed, expiring token so that a client
// following the redirect without the caller's credentials (browsers, curl -L, Octokit
// across hosts) still gets the bytes; it names one commit of one repository and lasts
// DOWNLOAD_TTL_MS, like upstream's codeload tokens. Nothing is stored for it.
import type { Readable } from 'node:stream';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { archiveStream, type ArchiveFormat } from '../../git/archive.ts';
import { peel } from '../../git/objects.ts';
import { isPlainRevision } from '../git-data/git-data.repository.ts';
import * as repos from '../repos/repos.service.ts';
import type { Repo } from '../repos/repos.model.ts';

/** How long a private repository's download address works (upstream's codeload: 5 minutes). */
export const DOWNLOAD_TTL_MS = 5 * 60_000;
const PURPOSE = 'archive-download';

/** The download path segment per format, as upstream's codeload names them. */
export const ARCHIVE_KINDS: Record<ArchiveFormat, string> = { 'tar.gz': 'legacy.tar.gz', zip: 'legacy.zip' };

export interface Archive {
  stream: Readable;
  /** The file name a browser saves it under. */
  fileName: string;
}

const signedText = (repoId: number, format: ArchiveFormat, commit: string, expiresMs: number) => `${repoId}:${format}:${commit}:${expiresMs}`;

/** `ref`: a branch, tag, full ref name or sha; empty for the default branch. 404 for one that names no commit. */
export async function archiveLink(ctx: AppContext, actor: Actor, owner: string, name: string, ref: string, format: ArchiveFormat): Promise<string> {
  const { repo } = await repos.locate(ctx, actor, owner, name, 'pull');
  const rev = ref === '' ? repo.defaultBranch : ref;
  const commit = isPlainRevision(rev) ? await peel(repos.gitDir(ctx, repo), rev, 'commit') : null;
  if (!commit) throw new NotFoundError();
  const url = ctx.urls.html('codeload', repo.owner.login, repo.name, ARCHIVE_KINDS[format], commit);
  if (repo.visibility === 'public') return url;
  const expires = ctx.clock.now().getTime() + DOWNLOAD_TTL_MS;
  return `${url}?token=${expires}.${ctx.secrets.sign(signedText(repo.id, format, commit, expires), PURPOSE)}`;
}

/** Whether `token` (from archiveLink) opens this commit's archive now. */
function tokenOpens(ctx: AppContext, repo: Repo, format: ArchiveFormat, commit: string, token: string): boolean {
  const m = /^(\d{1,15})\.([\w-]{1,100})$/.exec(token);
  if (!m) return false;
  const expires = Number(m[1]);
  return expires > ctx.clock.now().getTime() && ctx.secrets.verify(signedText(repo.id, format, commit, expires), PURPOSE, m[2]!);
}

/**
 * The archive behind a download address: by its token when it has one (whoever
 * follows the link), else as the caller may read the repository. 404 otherwise.
 */
export async function openArchive(
  ctx: AppContext, actor: Actor, owner: string, name: string, format: ArchiveFormat, commit: string, token: string | undefined,
): Promise<Archive> {
  let repo: Repo;
  if (token === undefined) repo = (await repos.locate(ctx, actor, owner, name, 'pull')).repo;
  else {
    const found = await repos.findForGit(ctx, owner, name);
    if (!found || !tokenOpens(ctx, found, format, commit, token)) throw new NotFoundError();
    repo = found;
  }
  const dir = repos.gitDir(ctx, repo);
  if (!/^[0-9a-f]{40,64}$/.test(commit) || await peel(dir, commit, 'commit') !== commit) throw new NotFoundError();
  // Upstream's top folder and file name: owner-repo-<short sha>.
  const base = `${repo.owner.login}-${repo.name}-${commit.slice(0, 7)}`;
  return { stream: archiveStream(dir, commit, format, base), fileName: `${base}.${format === 'zip' ? 'zip' : 'tar.gz'}` };
}
