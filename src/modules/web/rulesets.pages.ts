// The repository rulesets settings pages: the list (/{o}/{r}/settings/rules: the
// repository's rulesets with an Edit link for its branch rulesets, its organization's
// shown as such) and a branch ruleset's form (new or edit): name, enforcement, the
// branches it targets and excludes, the common rules (deletion, force pushes, linear
// history, signed commits, pull requests with their approving reviews, status checks by
// context), and its bypass list (one actor a line, with its mode). A refusal comes back
// inline with the form as typed.
import { ENFORCEMENTS, type Ruleset } from '../branch-protection/rulesets.model.ts';
import type { PresentedRuleset } from '../branch-protection/rulesets.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import { settingsPage } from './repo-settings.pages.ts';
import { repoPath } from './repo.layout.ts';
import { BYPASS_SYNTAX, FORM_RULES, type FormRule, type RulesetFields, type RulesetsView } from './rulesets.service.ts';
import { flash, fragment, h, postForm, type Frame, type ReactNode } from './web.render.ts';

export const rulesetPath = (repo: Repo, ...rest: (string | number)[]) => repoPath(repo, 'settings', 'rules', ...rest);

const RULE_WORDS: Record<FormRule, [label: string, hint: string]> = {
  deletion: ['Restrict deletions', 'Only those who may bypass can delete matching branches.'],
  non_fast_forward: ['Block force pushes', 'Nobody can force push to matching branches.'],
  required_linear_history: ['Require linear history', 'Merge commits cannot be pushed to matching branches.'],
  required_signatures: ['Require signed commits', 'Commits pushed to matching branches must have verified signatures.'],
  pull_request: ['Require a pull request before merging', 'Changes reach matching branches through pull requests with approving reviews.'],
  required_status_checks: ['Require status checks to pass', 'The named checks must succeed before a change reaches matching branches.'],
};

const ENFORCEMENT_WORDS: Record<string, string> = { active: 'Active (enforced)', evaluate: 'Evaluate (reported, not enforced)', disabled: 'Disabled' };

function rulesetRow(repo: Repo, p: PresentedRuleset): ReactNode {
  const rs = p.ruleset;
  const refs = rs.conditions?.refName;
  const editable = rs.organizationId === null && rs.target === 'branch';
  return h('li', { key: rs.id, className: 'row', 'data-ruleset': rs.name },
    h('div', null,
      editable ? h('a', { href: rulesetPath(repo, rs.id) }, h('strong', null, rs.name)) : h('strong', null, rs.name), ' ',
      h('span', { className: rs.enforcement === 'active' ? 'badge ok' : 'badge warn' }, rs.enforcement),
      rs.organizationId !== null ? h('span', { className: 'muted' }, ' (organization ruleset, managed by the organization)') : null,
      h('div', { className: 'muted' },
        `Target: ${rs.target}`,
        refs?.include.length ? ` · Includes: ${refs.include.join(', ')}` : '',
        refs?.exclude.length ? ` · Excludes: ${refs.exclude.join(', ')}` : '',
        ` · Rules: ${rs.rules.map((x) => x.type).join(', ') || 'none'}`,
        rs.bypassActors.length ? ` · Bypass actors: ${rs.bypassActors.length}` : '')),
    editable ? h('div', null, h('a', { href: rulesetPath(repo, rs.id), className: 'button secondary', 'aria-label': `Edit the ruleset ${rs.name}` }, 'Edit')) : null);
}

export function rulesetsPage(frame: Frame, v: RulesetsView): string {
  const { repo } = v;
  return settingsPage(frame, repo, 'rules',
    h('h2', null, 'Rulesets'),
    h('p', null, 'Rulesets protect branches: who may push, delete or force push, and what a change needs before it lands. ',
      h('a', { href: rulesetPath(repo, 'new'), className: 'button', id: 'new-ruleset' }, 'New branch ruleset')),
    v.rulesets.length
      ? h('ul', { className: 'list', id: 'rulesets' }, ...v.rulesets.map((p) => rulesetRow(repo, p)))
      : h('p', { className: 'muted', id: 'rulesets' }, 'No rulesets yet.'));
}

export interface RulesetFormState {
  fields: RulesetFields;
  errors: string[];
}

function check(id: string, name: string, value: string, checked: boolean, label: string, hint?: string): ReactNode {
  return h('div', { key: id, className: 'choice' },
    h('input', { type: 'checkbox', id, name, value, defaultChecked: checked, ...(hint ? { 'aria-describedby': `${id}-hint` } : {}) }),
    h('label', { htmlFor: id, className: 'inline' }, label),
    hint ? h('div', { className: 'muted', id: `${id}-hint` }, hint) : null);
}

function rulesetFields(form: RulesetFormState): ReactNode {
  const f = form.fields;
  const on = (r: FormRule) => f.rules.includes(r);
  return fragment(
    h('label', { htmlFor: 'ruleset-name' }, 'Ruleset name'),
    h('input', { type: 'text', id: 'ruleset-name', name: 'name', defaultValue: f.name, required: true, autoComplete: 'off' }),
    h('label', { htmlFor: 'ruleset-enforcement' }, 'Enforcement status'),
    h('select', { id: 'ruleset-enforcement', name: 'enforcement', defaultValue: f.enforcement },
      ...ENFORCEMENTS.map((e) => h('option', { key: e, value: e }, ENFORCEMENT_WORDS[e] ?? e))),
    h('fieldset', null, h('legend', null, 'Target branches'),
      h('p', { className: 'muted', id: 'ruleset-targets-hint' }, 'One per line: a branch name, a pattern (* within a segment, ** across), ~DEFAULT_BRANCH or ~ALL.'),
      h('label', { htmlFor: 'ruleset-include' }, 'Include'),
      h('textarea', { id: 'ruleset-include', name: 'include', rows: 3, defaultValue: f.include, 'aria-describedby': 'ruleset-targets-hint' }),
      h('label', { htmlFor: 'ruleset-exclude' }, 'Exclude'),
      h('textarea', { id: 'ruleset-exclude', name: 'exclude', rows: 2, defaultValue: f.exclude, 'aria-describedby': 'ruleset-targets-hint' })),
    h('fieldset', null, h('legend', null, 'Rules'),
      ...FORM_RULES.map((r) => fragment(
        check(`ruleset-rule-${r}`, `rule_${r}`, '1', on(r), RULE_WORDS[r][0], RULE_WORDS[r][1]),
        r === 'pull_request'
          ? fragment(
            h('label', { htmlFor: 'ruleset-review-count' }, 'Required approving reviews (0 to 10)'),
            h('input', { type: 'number', id: 'ruleset-review-count', name: 'required_approving_review_count', min: 0, max: 10, defaultValue: f.reviewCount }))
          : r === 'required_status_checks'
            ? fragment(
              h('label', { htmlFor: 'ruleset-contexts' }, 'Required checks (one context per line)'),
              h('textarea', { id: 'ruleset-contexts', name: 'contexts', rows: 3, defaultValue: f.contexts }))
            : null))),
    h('fieldset', null, h('legend', null, 'Bypass list'),
      h('p', { className: 'muted', id: 'ruleset-bypass-hint' }, BYPASS_SYNTAX),
      h('label', { htmlFor: 'ruleset-bypass' }, 'Who may bypass this ruleset'),
      h('textarea', { id: 'ruleset-bypass', name: 'bypass_actors', rows: 3, defaultValue: f.bypass, 'aria-describedby': 'ruleset-bypass-hint' })));
}

export function newRulesetPage(frame: Frame, repo: Repo, form: RulesetFormState): string {
  return settingsPage(frame, repo, 'rules',
    postForm(frame, rulesetPath(repo), { className: 'box', id: 'ruleset-form', 'aria-labelledby': 'ruleset-heading' },
      h('h2', { id: 'ruleset-heading' }, 'New branch ruleset'),
      flash('error', form.errors),
      rulesetFields(form),
      h('button', { type: 'submit', id: 'save-ruleset' }, 'Create')));
}

export function editRulesetPage(frame: Frame, repo: Repo, rs: Ruleset, form: RulesetFormState): string {
  return settingsPage(frame, repo, 'rules',
    postForm(frame, rulesetPath(repo, rs.id), { className: 'box', id: 'ruleset-form', 'aria-labelledby': 'ruleset-heading' },
      h('h2', { id: 'ruleset-heading' }, `Ruleset: ${rs.name}`),
      flash('error', form.errors),
      rulesetFields(form),
      h('button', { type: 'submit', id: 'save-ruleset' }, 'Save changes')),
    postForm(frame, rulesetPath(repo, rs.id, 'delete'), { className: 'inline', id: 'delete-ruleset-form' },
      h('button', { type: 'submit', className: 'danger', id: 'delete-ruleset' }, 'Delete ruleset')));
}
