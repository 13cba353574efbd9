// Commits and branches → API representation (the repository API's commit record,
// with files and stats for one commit; short and detailed branches). Pure.
import { encodeNodeId } from '../../domain/node-id.ts';
import type { FileChange } from '../../git/history.ts';
import { ZERO_SHA } from '../../git/repository.ts';
import type { Urls } from '../../urls.ts';
import type { ProtectionRule } from '../branch-protection/protection.model.ts';
import { branchProtectionView } from '../branch-protection/protection.views.ts';
import type { Repo } from '../repos/repos.model.ts';
import { simpleUser } from '../users/users.views.ts';
import type { CommitRecordData } from './commits.service.ts';
import { encodePath, gitPerson, shownMessage, verificationView, type RepoUrls } from './git-data.views.ts';

export function commitRecord(urls: Urls, u: RepoUrls, repo: Repo, d: CommitRecordData) {
  const c = d.commit;
  return {
    url: `${u.api}/commits/${c.sha}`,
    sha: c.sha,
    node_id: encodeNodeId('Commit', `${repo.id}:${c.sha}`),
    html_url: `${u.html}/commit/${c.sha}`,
    comments_url: `${u.api}/commits/${c.sha}/comments`,
    commit: {
      url: `${u.api}/git/commits/${c.sha}`,
      author: gitPerson(c.parsed.author),
      committer: gitPerson(c.parsed.committer),
      message: shownMessage(c.parsed.message),
      tree: { sha: c.parsed.tree, url: `${u.api}/git/trees/${c.parsed.tree}` },
      comment_count: 0,
      verification: verificationView(c.verification),
    },
    author: d.author ? simpleUser(d.author, urls) : null,
    committer: d.committer ? simpleUser(d.committer, urls) : null,
    parents: c.parsed.parents.map((p) => ({ sha: p, url: `${u.api}/commits/${p}`, html_url: `${u.html}/commit/${p}` })),
  };
}

/** A file of a commit or of a pull request (its URLs point at `commitSha`). */
export function diffEntry(u: RepoUrls, commitSha: string, f: FileChange) {
  const path = encodePath(f.path);
  return {
    // A removed file has no new blob: upstream names the one that was removed.
    sha: f.newSha === ZERO_SHA ? f.oldSha : f.newSha,
    filename: f.path,
    status: f.status,
    additions: f.additions,
    deletions: f.deletions,
    changes: f.additions + f.deletions,
    blob_url: `${u.html}/blob/${commitSha}/${path}`,
    raw_url: `${u.html}/raw/${commitSha}/${path}`,
    contents_url: `${u.api}/contents/${path}?ref=${commitSha}`,
    ...(f.patch !== null ? { patch: f.patch } : {}),
    ...(f.previousPath !== null ? { previous_filename: f.previousPath } : {}),
  };
}

export function fullCommit(
  urls: Urls, u: RepoUrls, repo: Repo, d: CommitRecordData & { files: FileChange[]; stats: { additions: number; deletions: number; total: number } },
) {
  return { ...commitRecord(urls, u, repo, d), stats: d.stats, files: d.files.map((f) => diffEntry(u, d.commit.sha, f)) };
}

/** A branch of a list, with its protection and where its rule is managed. */
export function shortBranch(urls: Urls, u: RepoUrls, repo: Repo, b: { name: string; sha: string; rule: ProtectionRule | null; protected: boolean }) {
  return {
    name: b.name,
    commit: { sha: b.sha, url: `${u.api}/commits/${b.sha}` },
    protected: b.protected,
    protection: branchProtectionView(urls, repo, b.name, b.rule),
    protection_url: `${u.api}/branches/${encodePath(b.name)}/protection`,
  };
}

export function branchWithProtection(urls: Urls, u: RepoUrls, repo: Repo, name: string, d: CommitRecordData & { rule: ProtectionRule | null; protected: boolean }) {
  const self = `${u.api}/branches/${encodePath(name)}`;
  return {
    name,
    commit: commitRecord(urls, u, repo, d),
    _links: { self, html: `${u.html}/tree/${encodePath(name)}` },
    protected: d.protected,
    protection: branchProtectionView(urls, repo, name, d.rule),
    protection_url: `${self}/protection`,
  };
}
