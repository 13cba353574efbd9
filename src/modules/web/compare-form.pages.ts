// The compare form: base and head, each typed or picked from the repository's branches
// and tags (a datalist, so a sha or a fork's `owner:branch` may be typed too), sent as a
// GET to `/{owner}/{repo}/compare`, which goes on to the comparison's own address. Shown
// alone at `/{owner}/{repo}/compare`, and above a comparison with its two sides filled in.
import type { CompareChoices } from './refs.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import { repoHeader, repoPath } from './repo.layout.ts';
import { flash, fragment, h, renderPage, type Frame, type ReactNode } from './web.render.ts';

export interface CompareSides {
  base: string;
  head: string;
  errors: string[];
}

function refOptions(id: string, c: CompareChoices): ReactNode {
  return h('datalist', { id },
    ...c.branches.map((b) => h('option', { key: `b:${b}`, value: b, label: 'branch' })),
    ...c.tags.map((t) => h('option', { key: `t:${t}`, value: t, label: 'tag' })));
}

export function compareForm(repo: Repo, c: CompareChoices, sides: CompareSides): ReactNode {
  return h('form', { method: 'get', action: repoPath(repo, 'compare'), className: 'box compare-form', id: 'compare-form', role: 'search', 'aria-label': 'Compare refs' },
    flash('error', sides.errors),
    h('label', { htmlFor: 'compare-base' }, 'Base'),
    h('input', { type: 'text', id: 'compare-base', name: 'base', list: 'compare-refs', defaultValue: sides.base, placeholder: repo.defaultBranch }),
    h('label', { htmlFor: 'compare-head' }, 'Compare (a branch, tag or commit; owner:branch for a fork)'),
    h('input', { type: 'text', id: 'compare-head', name: 'head', list: 'compare-refs', defaultValue: sides.head, required: true }),
    refOptions('compare-refs', c),
    h('button', { type: 'submit', id: 'compare-submit' }, 'Compare'));
}

/** `/{owner}/{repo}/compare`: the form alone (a refused pair answered in it). */
export function comparePickerPage(frame: Frame, c: CompareChoices, sides: CompareSides): string {
  return renderPage(frame, fragment(repoHeader(c.repo, 'code'),
    h('section', { 'aria-labelledby': 'compare-picker-heading' },
      h('h2', { id: 'compare-picker-heading' }, 'Compare changes'),
      h('p', { className: 'muted' }, 'Choose two refs to see what changed between them, or to open a pull request.'),
      compareForm(c.repo, c, sides))));
}
