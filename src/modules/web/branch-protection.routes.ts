// The branch protection settings pages, for the repository's admins (404 to anyone
// else): the rules and rulesets at /{o}/{r}/settings/branches, a new rule's form at
// …/settings/branch_protection_rules/new, a rule's form at …/branch_protection_rules/{id}
// with its save and delete posts. Each write goes through the branch-protection service
// the REST API uses; a refusal is shown inline.
import type { Router } from '../../http/router.ts';
import { redirectToLogin, sendPage } from '../web-session/web-request.ts';
import { branchesPage, editRulePage, newRulePage } from './branch-protection.pages.ts';
import * as protection from './branch-protection.service.ts';
import { adminRepo } from './repo-settings.service.ts';
import { repoPath } from './repo.layout.ts';
import { RuleForm, RuleParams } from './settings.schemas.ts';
import { formErrors, PAGE, signedInPost } from './web.forms.ts';
import { viewerOf } from './web.request.ts';
import { RepoParams, TokenForm } from './web.schemas.ts';

const on = (v: string | undefined) => v === '1';

function fieldsOf(b: RuleForm): protection.RuleFields {
  return {
    pattern: b.pattern ?? '',
    requireReviews: on(b.required_pull_request_reviews), reviewCount: b.required_approving_review_count ?? '',
    dismissStale: on(b.dismiss_stale_reviews), codeOwners: on(b.require_code_owner_reviews), lastPushApproval: on(b.require_last_push_approval),
    requireChecks: on(b.required_status_checks), strict: on(b.strict), contexts: b.contexts ?? '',
    enforceAdmins: on(b.enforce_admins), linearHistory: on(b.required_linear_history), forcePushes: on(b.allow_force_pushes),
    deletions: on(b.allow_deletions), blockCreations: on(b.block_creations), signatures: on(b.required_signatures),
    conversations: on(b.required_conversation_resolution), lockBranch: on(b.lock_branch), forkSyncing: on(b.allow_fork_syncing),
    restrict: on(b.restrictions), users: b.users ?? '', teams: b.teams ?? '', apps: b.apps ?? '',
  };
}

/** Registered inside the pages' scope (web.routes.ts). */
export function branchProtectionPages(r: Router): void {
  const ctx = r.ctx;
  const title = (section: string, repo: { owner: { login: string }; name: string }) => `${section} · Settings · ${repo.owner.login}/${repo.name}`;

  r.get('/:owner/:repo/settings/branches', { schema: { params: RepoParams }, config: { ...PAGE, operationId: 'wharf/web-repo-branch-protection' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const viewer = await viewerOf(request);
    if (!viewer.session) return redirectToLogin(request, reply);
    const v = await protection.branchesOf(ctx, viewer.actor, owner, repo);
    return sendPage(reply, branchesPage(viewer.frame(title('Branches', v.repo)), v));
  });

  r.get('/:owner/:repo/settings/branch_protection_rules/new', { schema: { params: RepoParams }, config: { ...PAGE, operationId: 'wharf/web-repo-new-protection-rule' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const viewer = await viewerOf(request);
    if (!viewer.session) return redirectToLogin(request, reply);
    const at = await adminRepo(ctx, viewer.actor, owner, repo);
    return sendPage(reply, newRulePage(viewer.frame(title('New branch protection rule', at)), at, { fields: protection.fieldsOfRule(null), errors: [] }));
  });

  r.post('/:owner/:repo/settings/branch_protection_rules', { schema: { params: RepoParams, body: RuleForm }, config: { ...PAGE, operationId: 'wharf/web-repo-create-protection-rule' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const f = fieldsOf(request.body);
    return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
      try {
        await protection.createRule(ctx, viewer.actor, owner, repo, f);
        const at = await adminRepo(ctx, viewer.actor, owner, repo);
        return reply.redirect(repoPath(at, 'settings', 'branches'), 303);
      } catch (err) {
        const { status, messages } = formErrors(err);
        const at = await adminRepo(ctx, viewer.actor, owner, repo);
        return sendPage(reply.code(status), newRulePage(viewer.frame(title('New branch protection rule', at)), at, { fields: f, errors: messages }));
      }
    });
  });

  r.get('/:owner/:repo/settings/branch_protection_rules/:rule_id', { schema: { params: RuleParams }, config: { ...PAGE, operationId: 'wharf/web-repo-protection-rule' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const id = protection.ruleId(request.params.rule_id);
    const viewer = await viewerOf(request);
    if (!viewer.session) return redirectToLogin(request, reply);
    const p = await protection.ruleOf(ctx, viewer.actor, owner, repo, id);
    return sendPage(reply, editRulePage(viewer.frame(title(p.rule.pattern, p.repo)), p.repo, p.rule, { fields: protection.fieldsOfRule(p), errors: [] }));
  });

  r.post('/:owner/:repo/settings/branch_protection_rules/:rule_id', { schema: { params: RuleParams, body: RuleForm }, config: { ...PAGE, operationId: 'wharf/web-repo-update-protection-rule' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const id = protection.ruleId(request.params.rule_id);
    const f = fieldsOf(request.body);
    return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
      try {
        await protection.updateRule(ctx, viewer.actor, owner, repo, id, f);
        const at = await adminRepo(ctx, viewer.actor, owner, repo);
        return reply.redirect(repoPath(at, 'settings', 'branches'), 303);
      } catch (err) {
        const { status, messages } = formErrors(err);
        const p = await protection.ruleOf(ctx, viewer.actor, owner, repo, id);
        return sendPage(reply.code(status), editRulePage(viewer.frame(title(p.rule.pattern, p.repo)), p.repo, p.rule, { fields: { ...f, pattern: p.rule.pattern }, errors: messages }));
      }
    });
  });

  r.post('/:owner/:repo/settings/branch_protection_rules/:rule_id/delete', { schema: { params: RuleParams, body: TokenForm }, config: { ...PAGE, operationId: 'wharf/web-repo-delete-protection-rule' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const id = protection.ruleId(request.params.rule_id);
    return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
      await protection.deleteRule(ctx, viewer.actor, owner, repo, id);
      const at = await adminRepo(ctx, viewer.actor, owner, repo);
      return reply.redirect(repoPath(at, 'settings', 'branches'), 303);
    });
  });
}
