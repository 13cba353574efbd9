// Repository contents → API representation: files, directory entries, symlinks,
// submodules, and the {content, commit} answer of a file change. Pure.
import { base64Lines } from '../../git/object-format.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { Content, ContentLinks, DirEntry, FileCommit, FileContent, FileSummary } from './contents.schemas.ts';
import type { ContentData, DirEntryData, FileData } from './contents.service.ts';
import type { CommitData } from './git-data.repository.ts';
import { encodePath, gitCommit, type RepoUrls } from './git-data.views.ts';

type Kind = DirEntryData['type'];

function links(u: RepoUrls, ref: string, p: string, kind: Kind, sha: string): ContentLinks {
  const self = `${u.api}/contents/${encodePath(p)}?ref=${encodeURIComponent(ref)}`;
  const git = kind === 'dir' ? `${u.api}/git/trees/${sha}` : kind === 'submodule' ? null : `${u.api}/git/blobs/${sha}`;
  const html = kind === 'submodule' ? null : `${u.html}/${kind === 'dir' ? 'tree' : 'blob'}/${encodePath(ref)}/${encodePath(p)}`;
  const download = kind === 'file' || kind === 'symlink' ? `${u.html}/raw/${encodePath(ref)}/${encodePath(p)}` : null;
  return { url: self, git_url: git, html_url: html, download_url: download, _links: { self, git, html } };
}

function nameOf(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

/** A file without its content: list entries and the answer of a change. */
export function fileSummary(u: RepoUrls, ref: string, f: { path: string; sha: string; size: number }): FileSummary {
  return { name: nameOf(f.path), path: f.path, sha: f.sha, size: f.size, ...links(u, ref, f.path, 'file', f.sha), type: 'file' as const };
}

/** A file with its content in base64 (or, when it was too large to read, none: the object media type). */
export function fileRecord(u: RepoUrls, ref: string, f: FileData): FileContent {
  return {
    type: 'file' as const,
    encoding: f.content ? 'base64' : 'none',
    size: f.size,
    name: nameOf(f.path),
    path: f.path,
    content: f.content ? base64Lines(f.content) : '',
    sha: f.sha,
    ...links(u, ref, f.path, 'file', f.sha),
  };
}

export function dirEntry(u: RepoUrls, ref: string, e: DirEntryData): DirEntry {
  // Upstream lists a submodule as a "file" in a directory, for backward compatibility.
  const type = e.type === 'submodule' ? 'file' : e.type;
  return { type, size: e.size, name: nameOf(e.path), path: e.path, sha: e.sha, ...links(u, ref, e.path, e.type, e.sha) };
}

export function contentRecord(u: RepoUrls, ref: string, c: ContentData, objectMedia: boolean): Content {
  switch (c.kind) {
    case 'file':
      return fileRecord(u, ref, c);
    case 'dir': {
      const entries = c.entries.map((e) => dirEntry(u, ref, e));
      if (!objectMedia) return entries;
      return { type: 'dir' as const, size: 0, name: nameOf(c.path), path: c.path, sha: c.sha, ...links(u, ref, c.path, 'dir', c.sha), entries };
    }
    case 'symlink':
      return { type: 'symlink' as const, target: c.target, size: c.size, name: nameOf(c.path), path: c.path, sha: c.sha, ...links(u, ref, c.path, 'symlink', c.sha) };
    case 'submodule':
      return { type: 'submodule' as const, submodule_git_url: c.url ?? '', size: 0, name: nameOf(c.path), path: c.path, sha: c.sha, ...links(u, ref, c.path, 'submodule', c.sha) };
  }
}

export function fileCommit(u: RepoUrls, repo: Repo, ref: string, file: FileData | null, commit: CommitData): FileCommit {
  return { content: file ? fileSummary(u, ref, file) : null, commit: gitCommit(u, repo, commit) };
}
