// Commit and code search items → API representation (upstream's commit-search-result-item
// and code-search-result-item). Pure; every URL from the URL builder.
import { encodeNodeId } from '../../domain/node-id.ts';
import type { Urls } from '../../urls.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { RepositoryView } from '../repos/repos.views.ts';
import type { Account } from '../users/users.model.ts';
import { simpleUser } from '../users/users.views.ts';
import { verificationView } from '../git-data/git-data.views.ts';
import type { Verification } from '../verification/verification.service.ts';
import { matchingLines } from './index-search.lines.ts';
import type { CodeHit } from './search-code.store.ts';
import type { CommitHit } from './search-commits.store.ts';
import type { CodeItem, CommitItem, TextMatch } from './search.schemas.ts';
import { textMatch } from './search.views.ts';

function repoBase(urls: Urls, repo: Repo): { api: string; html: string } {
  return { api: urls.api('repos', repo.owner.login, repo.name), html: urls.html(repo.owner.login, repo.name) };
}

function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/**
 * What a commit the repository no longer holds (history rewritten, the index not yet
 * caught up) shows: there is nothing to verify.
 */
const GONE: Verification = { verified: false, reason: 'gpgverify_unavailable', signature: null, payload: null, verified_at: null };

/**
 * `repository` is the record of `repo` (repos.present's presentReposById, one load for the page);
 * `verification` Wharf's verification of the commit, as the commits API gives it (null: the commit is gone).
 */
export function commitItem(
  urls: Urls, repo: Repo, repository: RepositoryView, c: CommitHit, people: { author: Account | null; committer: Account | null }, keywords: readonly string[] | null,
  verification: Verification | null,
): CommitItem {
  const u = repoBase(urls, repo);
  const item: CommitItem = {
    url: `${u.api}/commits/${c.sha}`,
    sha: c.sha,
    node_id: encodeNodeId('Commit', `${repo.id}:${c.sha}`),
    html_url: `${u.html}/commit/${c.sha}`,
    comments_url: `${u.api}/commits/${c.sha}/comments`,
    commit: {
      url: `${u.api}/git/commits/${c.sha}`,
      author: { name: c.authorName, email: c.authorEmail, date: c.authorDate },
      committer: { name: c.committerName, email: c.committerEmail, date: c.committerDate },
      // Upstream shows messages without the newline git ends them with.
      message: c.message.replace(/\n$/, ''),
      tree: { sha: c.tree, url: `${u.api}/git/trees/${c.tree}` },
      comment_count: 0,
      verification: verificationView(verification ?? GONE),
    },
    author: people.author ? simpleUser(people.author, urls) : null,
    committer: people.committer
      ? Object.assign(simpleUser(people.committer, urls), { name: c.committerName, email: c.committerEmail, date: c.committerDate })
      : null,
    parents: c.parents.map((p) => ({ url: `${u.api}/commits/${p}`, html_url: `${u.html}/commit/${p}`, sha: p })),
    repository,
    score: c.score,
  };
  if (!keywords) return item;
  const m = textMatch(item.url, 'Commit', 'message', item.commit.message, keywords);
  return { ...item, text_matches: m ? [m] : [] };
}

/**
 * A file found; its URLs name the commit the index holds (the default branch's tip when indexed).
 * `text` is its text; `lineWords` the keywords whose lines line_numbers names (none when only paths were searched).
 */
export function codeItem(
  urls: Urls, repo: Repo, repository: RepositoryView, commit: string, f: CodeHit, text: string | null, keywords: readonly string[] | null,
  lineWords: readonly string[],
): CodeItem {
  const u = repoBase(urls, repo);
  const path = encodePath(f.path);
  const item: CodeItem = {
    name: f.name,
    path: f.path,
    sha: f.blobSha,
    url: `${u.api}/contents/${path}?ref=${commit}`,
    git_url: `${u.api}/git/blobs/${f.blobSha}`,
    html_url: `${u.html}/blob/${commit}/${path}`,
    repository,
    score: f.score,
    file_size: f.size,
    language: f.language,
    // When the index last took this file in, the time sort=indexed orders by (as upstream's
    // "how recently a file has been indexed"): the indexing of the push that last changed
    // it on the default branch, or of a full read of the repository (the first, or after
    // history was rewritten). Not a commit date: the index keeps none per file.
    last_modified_at: f.indexedAt,
    line_numbers: matchingLines(text, lineWords),
  };
  if (!keywords) return item;
  const matches: TextMatch[] = [];
  const content = textMatch(item.url, 'FileContent', 'content', text, keywords);
  if (content) matches.push(content);
  const inPath = textMatch(item.url, 'FileContent', 'path', f.path, keywords);
  if (inPath) matches.push(inPath);
  return { ...item, text_matches: matches };
}
