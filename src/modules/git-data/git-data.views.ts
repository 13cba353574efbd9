// Git objects → API representation: blobs, trees, git commits, references, tags.
// Pure; every URL from the URL builder.
import { encodeNodeId } from '../../domain/node-id.ts';
import { base64Lines, isoOfEpoch, type Ident, type ParsedTag } from '../../git/object-format.ts';
import type { TreeEntry } from '../../git/objects.ts';
import type { RefEntry } from '../../git/repository.ts';
import type { Urls } from '../../urls.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { Verification } from '../verification/verification.service.ts';
import type { CommitData } from './git-data.repository.ts';
import type {
  BlobView, GitCommitView, GitPersonView, GitRefView, GitTagView, GitTreeEntryView, GitTreeView, ShortBlobView, VerificationView,
} from './git-data.schemas.ts';

/** A path or ref name in a URL: each segment encoded, the slashes kept. */
export function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

export interface RepoUrls {
  /** {base}/repos/{owner}/{repo} */
  api: string;
  /** {base}/{owner}/{repo} */
  html: string;
}

export function repoUrls(urls: Urls, repo: Repo): RepoUrls {
  return { api: urls.api('repos', repo.owner.login, repo.name), html: urls.html(repo.owner.login, repo.name) };
}

const OBJECT_COLLECTION: Record<string, string> = { blob: 'blobs', tree: 'trees', commit: 'commits', tag: 'tags' };

export function gitObjectUrl(u: RepoUrls, type: string, sha: string): string {
  return `${u.api}/git/${OBJECT_COLLECTION[type] ?? 'commits'}/${sha}`;
}

/** Upstream shows messages without the newline git adds at their end. */
export function shownMessage(message: string): string {
  return message.endsWith('\n') ? message.slice(0, -1) : message;
}

export function gitPerson(i: Ident): GitPersonView {
  return { name: i.name, email: i.email, date: isoOfEpoch(i.epoch) };
}

export function verificationView(v: Verification): VerificationView {
  return { verified: v.verified, reason: v.reason, signature: v.signature, payload: v.payload, verified_at: v.verified_at };
}

export function shortBlob(u: RepoUrls, sha: string): ShortBlobView {
  return { url: `${u.api}/git/blobs/${sha}`, sha };
}

export function blob(u: RepoUrls, repo: Repo, b: { sha: string; size: number; content: Buffer }): BlobView {
  return {
    sha: b.sha,
    node_id: encodeNodeId('Blob', `${repo.id}:${b.sha}`),
    size: b.size,
    url: `${u.api}/git/blobs/${b.sha}`,
    content: base64Lines(b.content),
    encoding: 'base64',
  };
}

export function treeEntry(u: RepoUrls, e: TreeEntry): GitTreeEntryView {
  return {
    path: e.path,
    mode: e.mode,
    type: e.type,
    sha: e.sha,
    ...(e.size !== null ? { size: e.size } : {}),
    // A submodule's commit lives in another repository: upstream gives it no URL.
    ...(e.type !== 'commit' ? { url: gitObjectUrl(u, e.type, e.sha) } : {}),
  };
}

export function gitTree(u: RepoUrls, t: { sha: string; entries: TreeEntry[]; truncated: boolean }): GitTreeView {
  return { sha: t.sha, url: `${u.api}/git/trees/${t.sha}`, tree: t.entries.map((e) => treeEntry(u, e)), truncated: t.truncated };
}

export function gitCommit(u: RepoUrls, repo: Repo, c: CommitData): GitCommitView {
  return {
    sha: c.sha,
    node_id: encodeNodeId('Commit', `${repo.id}:${c.sha}`),
    url: `${u.api}/git/commits/${c.sha}`,
    html_url: `${u.html}/commit/${c.sha}`,
    author: gitPerson(c.parsed.author),
    committer: gitPerson(c.parsed.committer),
    tree: { sha: c.parsed.tree, url: `${u.api}/git/trees/${c.parsed.tree}` },
    message: shownMessage(c.parsed.message),
    parents: c.parsed.parents.map((p) => ({ sha: p, url: `${u.api}/git/commits/${p}`, html_url: `${u.html}/commit/${p}` })),
    verification: verificationView(c.verification),
  };
}

export function gitRef(u: RepoUrls, repo: Repo, r: RefEntry): GitRefView {
  return {
    ref: r.ref,
    node_id: encodeNodeId('Ref', `${repo.id}:${r.ref}`),
    url: `${u.api}/git/${encodePath(r.ref)}`,
    object: { type: r.type, sha: r.sha, url: gitObjectUrl(u, r.type, r.sha) },
  };
}

export function gitTag(u: RepoUrls, repo: Repo, sha: string, t: ParsedTag, v: Verification): GitTagView {
  return {
    node_id: encodeNodeId('Tag', `${repo.id}:${sha}`),
    tag: t.tag,
    sha,
    url: `${u.api}/git/tags/${sha}`,
    message: shownMessage(t.message),
    tagger: t.tagger ? gitPerson(t.tagger) : { name: '', email: '', date: isoOfEpoch(0) },
    object: { type: t.type, sha: t.object, url: gitObjectUrl(u, t.type, t.object) },
    verification: verificationView(v),
  };
}
