// The repository rulesets settings pages: the list (/{o}/{r}/settings/rules: the
// repository's rulesets with an Edit link for its branch rulesets, its organization's
// shown as such) and a branch ruleset's form (new or edit), whose parts
// (ruleset-form.pages.ts) the organization rulesets pages share. A refusal comes back
// inline with the form as typed.
import type { Ruleset } from '../branch-protection/rulesets.model.ts';
import type { PresentedRuleset } from '../branch-protection/rulesets.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import { settingsPage } from './repo-settings.pages.ts';
import { repoPath } from './repo.layout.ts';
import { deleteRulesetForm, rulesetForm, rulesetRow, type RulesetFormState } from './ruleset-form.pages.ts';
import type { RulesetsView } from './rulesets.service.ts';
import { h, type Frame, type ReactNode } from './web.render.ts';

export type { RulesetFormState } from './ruleset-form.pages.ts';

export const rulesetPath = (repo: Repo, ...rest: (string | number)[]) => repoPath(repo, 'settings', 'rules', ...rest);

function row(repo: Repo, p: PresentedRuleset): ReactNode {
  const rs = p.ruleset;
  const editable = rs.organizationId === null && rs.target === 'branch';
  return rulesetRow(rs, editable ? rulesetPath(repo, rs.id) : null, rs.organizationId !== null ? 'organization ruleset, managed by the organization' : undefined);
}

export function rulesetsPage(frame: Frame, v: RulesetsView): string {
  const { repo } = v;
  return settingsPage(frame, repo, 'rules',
    h('h2', null, 'Rulesets'),
    h('p', null, 'Rulesets protect branches: who may push, delete or force push, and what a change needs before it lands. ',
      h('a', { href: rulesetPath(repo, 'new'), className: 'button', id: 'new-ruleset' }, 'New branch ruleset')),
    v.rulesets.length
      ? h('ul', { className: 'list', id: 'rulesets' }, ...v.rulesets.map((p) => row(repo, p)))
      : h('p', { className: 'muted', id: 'rulesets' }, 'No rulesets yet.'));
}

export function newRulesetPage(frame: Frame, repo: Repo, form: RulesetFormState): string {
  return settingsPage(frame, repo, 'rules', rulesetForm(frame, rulesetPath(repo), 'New branch ruleset', form, 'Create'));
}

export function editRulesetPage(frame: Frame, repo: Repo, rs: Ruleset, form: RulesetFormState): string {
  return settingsPage(frame, repo, 'rules',
    rulesetForm(frame, rulesetPath(repo, rs.id), `Ruleset: ${rs.name}`, form, 'Save changes'),
    deleteRulesetForm(frame, rulesetPath(repo, rs.id, 'delete')));
}
