// The branch protection settings pages: the repository's classic protection rules, each
// with what it requires, and its rulesets (read here, managed on the Rules page); and the
// form of one rule (new or edit) with every setting PUT …/branches/{branch}/protection
// takes, plus required signatures. A refusal comes back inline with the form as typed.
import type { ProtectionRule } from '../branch-protection/protection.model.ts';
import type { PresentedRuleset } from '../branch-protection/rulesets.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { BranchesView, RuleFields } from './branch-protection.service.ts';
import { settingsPage } from './repo-settings.pages.ts';
import { repoPath } from './repo.layout.ts';
import { flash, fragment, h, postForm, type Frame, type ReactNode } from './web.render.ts';

export const rulePath = (repo: Repo, ...rest: (string | number)[]) => repoPath(repo, 'settings', 'branch_protection_rules', ...rest);

/** What a rule requires, in words, for the list. */
function summary(rule: ProtectionRule): string[] {
  const r = rule.rules;
  const out: string[] = [];
  const reviews = r.requiredPullRequestReviews;
  if (reviews) out.push(`${reviews.requiredApprovingReviewCount} approving review${reviews.requiredApprovingReviewCount === 1 ? '' : 's'}`);
  if (reviews?.dismissStaleReviews) out.push('stale reviews dismissed');
  if (reviews?.requireCodeOwnerReviews) out.push('code owner review');
  if (reviews?.requireLastPushApproval) out.push('approval of the last push');
  const checks = r.requiredStatusChecks;
  if (checks) out.push(`status checks${checks.checks.length ? ` (${checks.checks.map((c) => c.context).join(', ')})` : ''}${checks.strict ? ', up to date' : ''}`);
  if (r.requiredSignatures) out.push('signed commits');
  if (r.requiredLinearHistory) out.push('linear history');
  if (r.requiredConversationResolution) out.push('conversations resolved');
  if (r.lockBranch) out.push('locked');
  if (r.restrictions) out.push('pushes restricted');
  if (r.enforceAdmins) out.push('admins included');
  if (r.allowForcePushes) out.push('force pushes allowed');
  if (r.allowDeletions) out.push('deletions allowed');
  if (r.blockCreations) out.push('creations blocked');
  return out;
}

function rulesetRow(p: PresentedRuleset): ReactNode {
  const rs = p.ruleset;
  const refs = rs.conditions?.refName;
  return h('li', { key: rs.id, className: 'row', 'data-ruleset': rs.name },
    h('div', null,
      h('strong', null, rs.name), ' ',
      h('span', { className: rs.enforcement === 'active' ? 'badge' : 'badge warn' }, rs.enforcement),
      rs.organizationId !== null ? h('span', { className: 'muted' }, ' (organization ruleset)') : null,
      h('div', { className: 'muted' },
        `Target: ${rs.target}`,
        refs?.include.length ? ` · Includes: ${refs.include.join(', ')}` : '',
        refs?.exclude.length ? ` · Excludes: ${refs.exclude.join(', ')}` : '',
        ` · Rules: ${rs.rules.map((x) => x.type).join(', ') || 'none'}`)));
}

export function branchesPage(frame: Frame, v: BranchesView, notice: string[] = []): string {
  const { repo } = v;
  const rows = v.rules.map((rule) => h('li', { key: rule.id, className: 'row', 'data-rule': rule.pattern },
    h('div', null,
      h('a', { href: rulePath(repo, rule.id) }, h('strong', null, rule.pattern)),
      h('div', { className: 'muted' }, summary(rule).join(' · ') || 'No requirements')),
    h('div', null, h('a', { href: rulePath(repo, rule.id), className: 'button secondary', 'aria-label': `Edit the rule of ${rule.pattern}` }, 'Edit'))));
  return settingsPage(frame, repo, 'branches',
    h('h2', null, 'Branch protection rules'),
    flash('notice', notice),
    h('p', null, `Default branch: ${repo.defaultBranch}. `, h('a', { href: rulePath(repo, 'new'), className: 'button', id: 'new-rule' }, 'Add rule')),
    rows.length ? h('ul', { className: 'list', id: 'rules' }, ...rows) : h('p', { className: 'muted', id: 'rules' }, 'No branch protection rules yet.'),
    h('h2', null, 'Rulesets'),
    v.rulesets.length
      ? h('ul', { className: 'list', id: 'rulesets' }, ...v.rulesets.map(rulesetRow))
      : h('p', { className: 'muted', id: 'rulesets' }, 'No rulesets.'),
    h('p', null, h('a', { href: repoPath(repo, 'settings', 'rules'), id: 'manage-rulesets' }, 'Manage rulesets')));
}

export interface RuleFormState { fields: RuleFields; errors: string[] }

function check(id: string, name: string, checked: boolean, label: string, hint?: string): ReactNode {
  return h('div', null,
    h('input', { type: 'checkbox', id, name, value: '1', defaultChecked: checked }),
    h('label', { htmlFor: id, className: 'inline' }, label),
    hint ? h('div', { className: 'muted' }, hint) : null);
}

function text(id: string, name: string, value: string, label: string, props: Record<string, unknown> = {}): ReactNode {
  return fragment(
    h('label', { htmlFor: id }, label),
    h('input', { type: 'text', id, name, defaultValue: value, autoComplete: 'off', ...props }));
}

function ruleFields(f: RuleFields, creating: boolean): ReactNode {
  return fragment(
    creating
      ? text('rule-pattern', 'pattern', f.pattern, 'Branch name or pattern (* within a segment, ** across)', { required: true })
      : h('p', null, 'Branch name or pattern: ', h('code', { id: 'rule-pattern' }, f.pattern)),
    h('fieldset', null, h('legend', null, 'Pull requests'),
      check('rule-reviews', 'required_pull_request_reviews', f.requireReviews, 'Require a pull request with approving reviews before merging'),
      h('label', { htmlFor: 'rule-review-count' }, 'Required approving reviews (0 to 6)'),
      h('input', { type: 'number', id: 'rule-review-count', name: 'required_approving_review_count', defaultValue: f.reviewCount, min: 0, max: 6 }),
      check('rule-dismiss-stale', 'dismiss_stale_reviews', f.dismissStale, 'Dismiss stale approvals when new commits are pushed'),
      check('rule-code-owners', 'require_code_owner_reviews', f.codeOwners, 'Require review from code owners'),
      check('rule-last-push', 'require_last_push_approval', f.lastPushApproval, 'Require approval of the most recent push')),
    h('fieldset', null, h('legend', null, 'Status checks'),
      check('rule-checks', 'required_status_checks', f.requireChecks, 'Require status checks to pass before merging'),
      check('rule-strict', 'strict', f.strict, 'Require branches to be up to date before merging'),
      h('label', { htmlFor: 'rule-contexts' }, 'Required checks (one per line)'),
      h('textarea', { id: 'rule-contexts', name: 'contexts', rows: 3, defaultValue: f.contexts })),
    h('fieldset', null, h('legend', null, 'Rules'),
      check('rule-conversations', 'required_conversation_resolution', f.conversations, 'Require conversation resolution before merging'),
      check('rule-signatures', 'required_signatures', f.signatures, 'Require signed commits'),
      check('rule-linear', 'required_linear_history', f.linearHistory, 'Require linear history'),
      check('rule-lock', 'lock_branch', f.lockBranch, 'Lock branch', 'The branch is read-only: nobody can push to it.'),
      check('rule-fork-syncing', 'allow_fork_syncing', f.forkSyncing, 'Allow fork syncing while locked'),
      check('rule-enforce-admins', 'enforce_admins', f.enforceAdmins, 'Do not allow bypassing these settings', 'Administrators are held to the rule too.'),
      check('rule-force-pushes', 'allow_force_pushes', f.forcePushes, 'Allow force pushes'),
      check('rule-deletions', 'allow_deletions', f.deletions, 'Allow deletions'),
      check('rule-block-creations', 'block_creations', f.blockCreations, 'Block creations of matching branches')),
    h('fieldset', null, h('legend', null, 'Restrict who can push (organization repositories)'),
      check('rule-restrict', 'restrictions', f.restrict, 'Restrict who can push to matching branches'),
      text('rule-users', 'users', f.users, 'Users (logins, comma separated)'),
      text('rule-teams', 'teams', f.teams, 'Teams (slugs, comma separated)'),
      text('rule-apps', 'apps', f.apps, 'Apps (slugs, comma separated)')));
}

export function newRulePage(frame: Frame, repo: Repo, form: RuleFormState): string {
  return settingsPage(frame, repo, 'branches',
    postForm(frame, rulePath(repo), { className: 'box', id: 'rule-form', 'aria-labelledby': 'rule-heading' },
      h('h2', { id: 'rule-heading' }, 'Add a branch protection rule'),
      flash('error', form.errors),
      ruleFields(form.fields, true),
      h('button', { type: 'submit', id: 'save-rule' }, 'Create')));
}

export function editRulePage(frame: Frame, repo: Repo, rule: ProtectionRule, form: RuleFormState): string {
  return settingsPage(frame, repo, 'branches',
    postForm(frame, rulePath(repo, rule.id), { className: 'box', id: 'rule-form', 'aria-labelledby': 'rule-heading' },
      h('h2', { id: 'rule-heading' }, `Branch protection rule: ${rule.pattern}`),
      flash('error', form.errors),
      ruleFields(form.fields, false),
      h('button', { type: 'submit', id: 'save-rule' }, 'Save changes')),
    postForm(frame, rulePath(repo, rule.id, 'delete'), { className: 'inline', id: 'delete-rule-form' },
      h('button', { type: 'submit', className: 'danger', id: 'delete-rule' }, 'Delete rule')));
}
