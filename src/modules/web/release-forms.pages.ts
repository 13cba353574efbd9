// The release forms: "Draft a new release" (/{o}/{r}/releases/new: a tag, existing or
// new at a chosen branch, a name, notes, draft and pre-release) and a release's edit
// page (/{o}/{r}/releases/edit/{tag}: the same fields, Delete release, its assets with
// a Delete button each and the upload form). Both choose make_latest (yes, no, or by date
// and version) and have a Generate release notes button, which posts the form and shows
// it again with the notes in its body, unsaved (no script needed). Offered to those the releases service lets
// write; a refusal comes back inline beside the form it refused, with what was typed.
import type { Urls } from '../../urls.ts';
import { release as releaseView } from '../releases/releases.views.ts';
import type { ReleaseDetail } from '../releases/releases.views.ts';
import type { Repo } from '../repos/repos.model.ts';
import { humanSize } from './releases.pages.ts';
import type { ReleaseFields } from './release-forms.service.ts';
import { encPath, repoHeader, repoPath } from './repo.layout.ts';
import { flash, fragment, h, postForm, renderPage, type Frame, type ReactNode } from './web.render.ts';

export interface ReleaseFormState extends ReleaseFields {
  errors: string[];
}

export function releaseFormOf(repo: Repo, d: ReleaseDetail | null): ReleaseFormState {
  const r = d?.release;
  return {
    tag: r?.tagName ?? '', target: r?.targetCommitish ?? repo.defaultBranch, name: r?.name ?? '', body: r?.body ?? '',
    draft: r?.draft ?? false, prerelease: r?.prerelease ?? false, makeLatest: r?.makeLatest ?? 'true', errors: [],
  };
}

/** The edit page's other forms and what each refused. */
export interface ReleaseInline {
  release?: string[];
  assets?: string[];
  upload?: { name: string; label: string };
}

function fields(form: ReleaseFormState, branches: readonly string[]): ReactNode {
  const targets = branches.includes(form.target) ? branches : [form.target, ...branches];
  return fragment(
    flash('error', form.errors),
    h('label', { htmlFor: 'release-tag-field' }, 'Tag'),
    h('input', { type: 'text', id: 'release-tag-field', name: 'tag_name', defaultValue: form.tag, required: true, 'aria-describedby': 'release-tag-hint' }),
    h('p', { className: 'muted', id: 'release-tag-hint' }, 'An existing tag, or a new one made at the target when the release is published.'),
    h('label', { htmlFor: 'release-target-field' }, 'Target'),
    h('select', { id: 'release-target-field', name: 'target_commitish', defaultValue: form.target },
      ...targets.map((b) => h('option', { key: b, value: b }, b))),
    h('label', { htmlFor: 'release-name-field' }, 'Release title'),
    h('input', { type: 'text', id: 'release-name-field', name: 'name', defaultValue: form.name }),
    h('label', { htmlFor: 'release-body-field' }, 'Describe this release'),
    h('textarea', { id: 'release-body-field', name: 'body', rows: 10, defaultValue: form.body }),
    h('div', { className: 'choice' },
      h('input', { type: 'checkbox', id: 'release-prerelease-field', name: 'prerelease', value: '1', defaultChecked: form.prerelease }),
      h('label', { htmlFor: 'release-prerelease-field', className: 'inline' }, 'Set as a pre-release')),
    h('div', { className: 'choice' },
      h('input', { type: 'checkbox', id: 'release-draft-field', name: 'draft', value: '1', defaultChecked: form.draft }),
      h('label', { htmlFor: 'release-draft-field', className: 'inline' }, 'Save as a draft (not published, its tag not made yet)')),
    h('fieldset', { id: 'release-latest-field' },
      h('legend', null, 'Set as the latest release'),
      ...LATEST_CHOICES.map(([value, label]) => h('div', { key: value, className: 'choice' },
        h('input', { type: 'radio', id: `release-latest-${value}`, name: 'make_latest', value, defaultChecked: form.makeLatest === value }),
        h('label', { htmlFor: `release-latest-${value}`, className: 'inline' }, label)))));
}

/** make_latest's values, as the API takes them. */
const LATEST_CHOICES: readonly (readonly [string, string])[] = [
  ['true', 'Yes: the latest release once published'],
  ['false', 'No: leave the latest release as it is'],
  ['legacy', 'By date and version (the newest release by creation date and semantic version)'],
];

/** After the Save button, so that Enter in a field saves rather than generates. */
const generateButton = h('button', { type: 'submit', name: 'generate_notes', value: '1', className: 'secondary', id: 'generate-notes' }, 'Generate release notes');

export function newReleasePage(frame: Frame, repo: Repo, form: ReleaseFormState, branches: readonly string[]): string {
  return renderPage(frame, fragment(repoHeader(repo, 'code'),
    postForm(frame, repoPath(repo, 'releases'), { className: 'box', id: 'new-release-form', 'aria-labelledby': 'new-release-heading' },
      h('h2', { id: 'new-release-heading' }, 'Draft a new release'),
      fields(form, branches),
      h('button', { type: 'submit', id: 'publish-release' }, 'Save release'), ' ', generateButton),
    h('p', null, h('a', { href: repoPath(repo, 'releases') }, 'Cancel'))));
}

function assetsBox(frame: Frame, d: ReleaseDetail, urls: Urls, inline: ReleaseInline): ReactNode {
  const repo = d.repo;
  const view = releaseView(urls, d);
  const upload = inline.upload ?? { name: '', label: '' };
  return h('section', { className: 'box', id: 'release-assets', 'aria-labelledby': 'release-assets-heading' },
    h('h2', { id: 'release-assets-heading' }, `Assets (${view.assets.length})`),
    flash('error', inline.assets ?? []),
    view.assets.length
      ? h('ul', { className: 'list', id: 'asset-list' }, ...view.assets.map((a) => h('li', { key: a.id, className: 'row asset', 'data-asset': a.name },
        h('div', null, h('a', { href: a.browser_download_url }, a.label || a.name), ' ', h('span', { className: 'muted' }, humanSize(a.size))),
        postForm(frame, repoPath(repo, 'releases', 'assets', a.id, 'delete'), { className: 'inline' },
          h('button', { type: 'submit', className: 'danger', 'aria-label': `Delete ${a.name}` }, 'Delete')))))
      : h('p', { className: 'muted' }, 'No assets yet.'),
    postForm(frame, repoPath(repo, 'releases', d.release.id, 'assets'), { encType: 'multipart/form-data', id: 'upload-asset-form', 'aria-labelledby': 'upload-asset-heading' },
      h('h3', { id: 'upload-asset-heading' }, 'Attach a binary'),
      h('label', { htmlFor: 'asset-file-field' }, 'File'),
      h('input', { type: 'file', id: 'asset-file-field', name: 'file' }),
      h('label', { htmlFor: 'asset-name-field' }, 'Name (the file\'s own when empty)'),
      h('input', { type: 'text', id: 'asset-name-field', name: 'name', defaultValue: upload.name }),
      h('label', { htmlFor: 'asset-label-field' }, 'Label (optional)'),
      h('input', { type: 'text', id: 'asset-label-field', name: 'label', defaultValue: upload.label }),
      h('button', { type: 'submit', id: 'upload-asset' }, 'Upload')));
}

export function editReleasePage(frame: Frame, d: ReleaseDetail, urls: Urls, form: ReleaseFormState, branches: readonly string[], inline: ReleaseInline = {}): string {
  const repo = d.repo;
  const r = d.release;
  return renderPage(frame, fragment(repoHeader(repo, 'code'),
    h('nav', { 'aria-label': 'Releases', className: 'crumbs' },
      h('a', { href: repoPath(repo, 'releases') }, 'Releases'), ' / ',
      h('a', { href: repoPath(repo, 'releases', 'tag', encPath(r.tagName)) }, r.tagName), ' / ', h('strong', null, 'Edit')),
    postForm(frame, repoPath(repo, 'releases', r.id), { className: 'box', id: 'edit-release-form', 'aria-labelledby': 'edit-release-heading' },
      h('h2', { id: 'edit-release-heading' }, `Edit release ${r.name || r.tagName}`),
      fields(form, branches),
      h('button', { type: 'submit', id: 'save-release' }, 'Update release'), ' ', generateButton),
    assetsBox(frame, d, urls, inline),
    h('section', { className: 'box', id: 'delete-release', 'aria-labelledby': 'delete-release-heading' },
      h('h2', { id: 'delete-release-heading' }, 'Delete this release'),
      flash('error', inline.release ?? []),
      h('p', { className: 'muted' }, 'The release and its assets are deleted; its tag stays.'),
      postForm(frame, repoPath(repo, 'releases', r.id, 'delete'), { className: 'inline' },
        h('button', { type: 'submit', className: 'danger', id: 'delete-release-button' }, 'Delete release')))));
}
