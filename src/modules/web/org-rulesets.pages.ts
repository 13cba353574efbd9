// The organization rulesets settings pages: the list (/organizations/{org}/settings/rules:
// the organization's rulesets, an Edit link on each branch ruleset that picks its
// repositories by name) and a branch ruleset's form (new or edit): the repository
// rulesets pages' form (ruleset-form.pages.ts) with the repositories it covers, included
// and excluded by name or pattern. A refusal comes back inline with the form as typed.
import type { Ruleset } from '../branch-protection/rulesets.model.ts';
import type { PresentedRuleset } from '../branch-protection/rulesets.service.ts';
import type { Organization } from '../orgs/orgs.model.ts';
import { editable, type OrgRulesetFields, type OrgRulesetsView } from './org-rulesets.service.ts';
import { orgSettingsPage, orgSettingsPath } from './org-settings.pages.ts';
import { deleteRulesetForm, rulesetForm, rulesetRow, type RulesetFormState } from './ruleset-form.pages.ts';
import { h, type Frame, type ReactNode } from './web.render.ts';

export const orgRulesetPath = (org: Organization, ...rest: (string | number)[]) =>
  [orgSettingsPath(org.account, 'rules'), ...rest.map((p) => encodeURIComponent(String(p)))].join('/');

function row(org: Organization, p: PresentedRuleset): ReactNode {
  const rs = p.ruleset;
  return rulesetRow(rs, editable(rs) ? orgRulesetPath(org, rs.id) : null, editable(rs) ? undefined : 'edited through the API');
}

export function orgRulesetsPage(frame: Frame, v: OrgRulesetsView): string {
  const { org } = v;
  return orgSettingsPage(frame, org.account, 'rules',
    h('h2', null, 'Rulesets'),
    h('p', null, 'Organization rulesets protect the branches of the organization\'s repositories you pick by name, alongside each repository\'s own rulesets. ',
      h('a', { href: orgRulesetPath(org, 'new'), className: 'button', id: 'new-ruleset' }, 'New branch ruleset')),
    v.rulesets.length
      ? h('ul', { className: 'list', id: 'rulesets' }, ...v.rulesets.map((p) => row(org, p)))
      : h('p', { className: 'muted', id: 'rulesets' }, 'No rulesets yet.'));
}

/** The repositories the ruleset covers: the fieldset the organization's form adds before the branches. */
function repositoryTargets(f: OrgRulesetFields): ReactNode {
  return h('fieldset', null, h('legend', null, 'Target repositories'),
    h('p', { className: 'muted', id: 'ruleset-repositories-hint' }, 'One per line: a repository name, a pattern (* and ? within the name) or ~ALL.'),
    h('label', { htmlFor: 'ruleset-repository-include' }, 'Include repositories'),
    h('textarea', { id: 'ruleset-repository-include', name: 'repository_include', rows: 3, defaultValue: f.repositoryInclude, 'aria-describedby': 'ruleset-repositories-hint' }),
    h('label', { htmlFor: 'ruleset-repository-exclude' }, 'Exclude repositories'),
    h('textarea', { id: 'ruleset-repository-exclude', name: 'repository_exclude', rows: 2, defaultValue: f.repositoryExclude, 'aria-describedby': 'ruleset-repositories-hint' }));
}

export function newOrgRulesetPage(frame: Frame, org: Organization, form: RulesetFormState<OrgRulesetFields>): string {
  return orgSettingsPage(frame, org.account, 'rules',
    rulesetForm(frame, orgRulesetPath(org), 'New branch ruleset', form, 'Create', repositoryTargets(form.fields)));
}

export function editOrgRulesetPage(frame: Frame, org: Organization, rs: Ruleset, form: RulesetFormState<OrgRulesetFields>): string {
  return orgSettingsPage(frame, org.account, 'rules',
    rulesetForm(frame, orgRulesetPath(org, rs.id), `Ruleset: ${rs.name}`, form, 'Save changes', repositoryTargets(form.fields)),
    deleteRulesetForm(frame, orgRulesetPath(org, rs.id, 'delete')));
}
