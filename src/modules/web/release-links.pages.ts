// The way into the release and tag forms from the lists, for writers: "Draft a new
// release", a release's Edit, a tag's Delete (release-forms.pages.ts has the forms).
import type { Repo } from '../repos/repos.model.ts';
import { encPath, repoPath } from './repo.layout.ts';
import { h, postForm, type Frame, type ReactNode } from './web.render.ts';

/** "Draft a new release", for writers, above the list. */
export function newReleaseButton(repo: Repo): ReactNode {
  return h('p', null, h('a', { className: 'button', href: repoPath(repo, 'releases', 'new'), id: 'new-release' }, 'Draft a new release'));
}

/** A release's Edit link, for writers. */
export function editReleaseLink(repo: Repo, tag: string): ReactNode {
  return h('a', { className: 'button secondary edit-release', href: repoPath(repo, 'releases', 'edit', encPath(tag)) }, 'Edit');
}

/** A tag's Delete button on the tags page, for writers. */
export function deleteTagButton(frame: Frame, repo: Repo, tag: string): ReactNode {
  return postForm(frame, repoPath(repo, 'tags', 'delete'), { className: 'inline' },
    h('input', { type: 'hidden', name: 'tag', value: tag }),
    h('button', { type: 'submit', className: 'danger', 'aria-label': `Delete tag ${tag}` }, 'Delete'));
}
