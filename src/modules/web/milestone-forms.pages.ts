// The milestone forms: new (/{o}/{r}/milestones/new) and edit
// (/{o}/{r}/milestones/{n}/edit) with title, due date and description, and the close
// and reopen buttons, which post the state alone. Shown to those the milestones service
// lets write; a refusal comes back inline with what was typed.
import type { MilestoneRecord } from '../issues/issues.model.ts';
import type { Repo } from '../repos/repos.model.ts';
import { repoHeader, repoPath } from './repo.layout.ts';
import type { MilestoneFields } from './milestones.service.ts';
import { flash, fragment, h, postForm, renderPage, type Frame, type ReactNode } from './web.render.ts';

export interface MilestoneFormState {
  title: string;
  description: string;
  /** YYYY-MM-DD, as a date input gives it ('' for none). */
  dueOn: string;
  errors: string[];
}

export function milestoneFormOf(m: MilestoneRecord | null): MilestoneFormState {
  return { title: m?.title ?? '', description: m?.description ?? '', dueOn: m?.dueOn?.slice(0, 10) ?? '', errors: [] };
}

/** The form again as it was typed (fields it did not send shown as they are). */
export function typedForm(current: MilestoneFormState, f: MilestoneFields, errors: string[]): MilestoneFormState {
  return { title: f.title ?? current.title, description: f.description ?? current.description, dueOn: f.dueOn ?? current.dueOn, errors };
}

function fields(form: MilestoneFormState): ReactNode {
  return fragment(
    flash('error', form.errors),
    h('label', { htmlFor: 'milestone-title-field' }, 'Title'),
    h('input', { type: 'text', id: 'milestone-title-field', name: 'title', defaultValue: form.title, required: true }),
    h('label', { htmlFor: 'milestone-due-field' }, 'Due date (optional)'),
    h('input', { type: 'date', id: 'milestone-due-field', name: 'due_on', defaultValue: form.dueOn }),
    h('label', { htmlFor: 'milestone-description-field' }, 'Description'),
    h('textarea', { id: 'milestone-description-field', name: 'description', rows: 6, defaultValue: form.description }));
}

export function newMilestonePage(frame: Frame, repo: Repo, form: MilestoneFormState): string {
  return renderPage(frame, fragment(repoHeader(repo, 'issues'),
    postForm(frame, repoPath(repo, 'milestones'), { className: 'box', id: 'new-milestone-form', 'aria-labelledby': 'new-milestone-heading' },
      h('h2', { id: 'new-milestone-heading' }, 'New milestone'),
      fields(form),
      h('button', { type: 'submit', id: 'create-milestone' }, 'Create milestone'))));
}

/** Close or reopen: the state alone, so nothing else of the milestone changes. */
export function stateButton(frame: Frame, repo: Repo, m: MilestoneRecord): ReactNode {
  const closing = m.state === 'open';
  return postForm(frame, repoPath(repo, 'milestones', m.number), { className: 'inline', id: 'milestone-state-form' },
    h('input', { type: 'hidden', name: 'state', value: closing ? 'closed' : 'open' }),
    h('button', { type: 'submit', className: 'secondary', id: closing ? 'close-milestone' : 'reopen-milestone' }, closing ? 'Close milestone' : 'Reopen milestone'));
}

export function editMilestonePage(frame: Frame, repo: Repo, m: MilestoneRecord, form: MilestoneFormState): string {
  return renderPage(frame, fragment(repoHeader(repo, 'issues'),
    postForm(frame, repoPath(repo, 'milestones', m.number), { className: 'box', id: 'edit-milestone-form', 'aria-labelledby': 'edit-milestone-heading' },
      h('h2', { id: 'edit-milestone-heading' }, `Edit milestone #${m.number}`),
      fields(form),
      h('button', { type: 'submit', id: 'save-milestone' }, 'Save changes')),
    h('p', null, stateButton(frame, repo, m), ' ', h('a', { href: repoPath(repo, 'milestone', m.number) }, 'Cancel'))));
}
