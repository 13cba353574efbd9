// The new repository page (/new, as upstream's): the owner (the viewer or one of the
// organizations they may create in), the name, a description, public or private, and a
// README to start from. A refusal comes back inline with what was typed.
import type { NewRepoFields } from './new-repository.service.ts';
import { flash, fragment, h, postForm, renderPage, type Frame } from './web.render.ts';

export interface NewRepoFormState { fields: NewRepoFields; errors: string[] }

export const NEW_REPO_PATH = '/new';

/** The empty form of `login`: their own account, public, no README. */
export function emptyNewRepo(login: string): NewRepoFields {
  return { owner: login, name: '', description: '', visibility: 'public', autoInit: false };
}

const VISIBILITIES: readonly (readonly ['public' | 'private', string, string])[] = [
  ['public', 'Public', 'Anyone can see this repository. You choose who can commit.'],
  ['private', 'Private', 'You choose who can see and commit to this repository.'],
];

export function newRepositoryPage(frame: Frame, owners: readonly string[], form: NewRepoFormState): string {
  const f = form.fields;
  return renderPage(frame, fragment(
    postForm(frame, NEW_REPO_PATH, { className: 'box', id: 'new-repo-form', 'aria-labelledby': 'new-repo-heading' },
      h('h1', { id: 'new-repo-heading' }, 'Create a new repository'),
      flash('error', form.errors),
      h('label', { htmlFor: 'repo-owner' }, 'Owner'),
      h('select', { id: 'repo-owner', name: 'owner', defaultValue: f.owner },
        ...owners.map((o) => h('option', { key: o, value: o }, o)),
        // What was typed stays selected, even an owner the viewer may not create in (its refusal is shown above).
        f.owner && !owners.includes(f.owner) ? h('option', { key: f.owner, value: f.owner }, f.owner) : null),
      h('label', { htmlFor: 'repo-name' }, 'Repository name'),
      h('input', { type: 'text', id: 'repo-name', name: 'name', defaultValue: f.name, required: true, maxLength: 100, autoComplete: 'off' }),
      h('label', { htmlFor: 'repo-description' }, 'Description (optional)'),
      h('input', { type: 'text', id: 'repo-description', name: 'description', defaultValue: f.description, autoComplete: 'off' }),
      h('fieldset', null, h('legend', null, 'Visibility'),
        ...VISIBILITIES.map(([value, label, hint]) => h('div', { key: value, className: 'choice' },
          h('input', { type: 'radio', id: `repo-visibility-${value}`, name: 'visibility', value, defaultChecked: f.visibility === value }),
          h('label', { htmlFor: `repo-visibility-${value}`, className: 'inline' }, label, ' ', h('span', { className: 'muted' }, hint))))),
      h('fieldset', null, h('legend', null, 'Initialize this repository with'),
        h('div', { className: 'choice' },
          h('input', { type: 'checkbox', id: 'repo-auto-init', name: 'auto_init', value: '1', defaultChecked: f.autoInit }),
          h('label', { htmlFor: 'repo-auto-init', className: 'inline' }, 'Add a README file'))),
      h('button', { type: 'submit', id: 'create-repository' }, 'Create repository'))));
}
