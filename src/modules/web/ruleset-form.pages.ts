// The branch ruleset form's parts that the repository and the organization rulesets pages
// share: a ruleset's row in a list, the form's fields (name, enforcement, the branches it
// targets and excludes, the common rules with the pull request's review count and the
// status checks' contexts, the bypass list one actor a line), the form with its inline
// refusals, and the delete button. Each page puts its own frame and paths around them.
import { ENFORCEMENTS, type Ruleset } from '../branch-protection/rulesets.model.ts';
import { BYPASS_SYNTAX, FORM_RULES, type FormRule, type RulesetFields } from './ruleset-form.service.ts';
import { flash, fragment, h, postForm, type Frame, type ReactNode } from './web.render.ts';

const RULE_WORDS: Record<FormRule, [label: string, hint: string]> = {
  deletion: ['Restrict deletions', 'Only those who may bypass can delete matching branches.'],
  non_fast_forward: ['Block force pushes', 'Nobody can force push to matching branches.'],
  required_linear_history: ['Require linear history', 'Merge commits cannot be pushed to matching branches.'],
  required_signatures: ['Require signed commits', 'Commits pushed to matching branches must have verified signatures.'],
  pull_request: ['Require a pull request before merging', 'Changes reach matching branches through pull requests with approving reviews.'],
  required_status_checks: ['Require status checks to pass', 'The named checks must succeed before a change reaches matching branches.'],
};

const ENFORCEMENT_WORDS: Record<string, string> = { active: 'Active (enforced)', evaluate: 'Evaluate (reported, not enforced)', disabled: 'Disabled' };

/** What a ruleset covers and does, in one line of a list. */
function summary(rs: Ruleset): string {
  const refs = rs.conditions?.refName;
  const repos = rs.repositoryCondition;
  return [
    `Target: ${rs.target}`,
    repos?.by === 'name' ? `Repositories: ${repos.include.join(', ') || 'none'}${repos.exclude.length ? ` except ${repos.exclude.join(', ')}` : ''}` : '',
    repos?.by === 'id' ? `Repositories: ${repos.ids.length} chosen by id` : '',
    refs?.include.length ? `Includes: ${refs.include.join(', ')}` : '',
    refs?.exclude.length ? `Excludes: ${refs.exclude.join(', ')}` : '',
    `Rules: ${rs.rules.map((x) => x.type).join(', ') || 'none'}`,
    rs.bypassActors.length ? `Bypass actors: ${rs.bypassActors.length}` : '',
  ].filter(Boolean).join(' · ');
}

/** A ruleset in a list: its name (linked to its form when `href`), enforcement, `note`, and what it covers. */
export function rulesetRow(rs: Ruleset, href: string | null, note?: string): ReactNode {
  return h('li', { key: rs.id, className: 'row', 'data-ruleset': rs.name },
    h('div', null,
      href ? h('a', { href }, h('strong', null, rs.name)) : h('strong', null, rs.name), ' ',
      h('span', { className: rs.enforcement === 'active' ? 'badge ok' : 'badge warn' }, rs.enforcement),
      note ? h('span', { className: 'muted' }, ` (${note})`) : null,
      h('div', { className: 'muted' }, summary(rs))),
    href ? h('div', null, h('a', { href, className: 'button secondary', 'aria-label': `Edit the ruleset ${rs.name}` }, 'Edit')) : null);
}

export interface RulesetFormState<F extends RulesetFields = RulesetFields> {
  fields: F;
  errors: string[];
}

function check(id: string, name: string, value: string, checked: boolean, label: string, hint?: string): ReactNode {
  return h('div', { key: id, className: 'choice' },
    h('input', { type: 'checkbox', id, name, value, defaultChecked: checked, ...(hint ? { 'aria-describedby': `${id}-hint` } : {}) }),
    h('label', { htmlFor: id, className: 'inline' }, label),
    hint ? h('div', { className: 'muted', id: `${id}-hint` }, hint) : null);
}

/** The form's fields; `targets` (the organization's repositories) goes before the branches. */
function rulesetFields(f: RulesetFields, targets?: ReactNode): ReactNode {
  const on = (r: FormRule) => f.rules.includes(r);
  return fragment(
    h('label', { htmlFor: 'ruleset-name' }, 'Ruleset name'),
    h('input', { type: 'text', id: 'ruleset-name', name: 'name', defaultValue: f.name, required: true, autoComplete: 'off' }),
    h('label', { htmlFor: 'ruleset-enforcement' }, 'Enforcement status'),
    h('select', { id: 'ruleset-enforcement', name: 'enforcement', defaultValue: f.enforcement },
      ...ENFORCEMENTS.map((e) => h('option', { key: e, value: e }, ENFORCEMENT_WORDS[e] ?? e))),
    targets ?? null,
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

/** The ruleset form posting to `action`, its refusals on top, with `submit` as its button. */
export function rulesetForm(frame: Frame, action: string, heading: string, form: RulesetFormState, submit: string, targets?: ReactNode): ReactNode {
  return postForm(frame, action, { className: 'box', id: 'ruleset-form', 'aria-labelledby': 'ruleset-heading' },
    h('h2', { id: 'ruleset-heading' }, heading),
    flash('error', form.errors),
    rulesetFields(form.fields, targets),
    h('button', { type: 'submit', id: 'save-ruleset' }, submit));
}

/** The delete button, posting to `action`. */
export function deleteRulesetForm(frame: Frame, action: string): ReactNode {
  return postForm(frame, action, { className: 'inline', id: 'delete-ruleset-form' },
    h('button', { type: 'submit', className: 'danger', id: 'delete-ruleset' }, 'Delete ruleset'));
}
