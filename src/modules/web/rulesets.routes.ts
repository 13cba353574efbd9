// The repository rulesets settings pages, for the repository's admins (404 to anyone
// else): the list at /{o}/{r}/settings/rules, a new branch ruleset's form at
// …/settings/rules/new, a ruleset's form at …/settings/rules/{id} with its save and
// delete posts. Each write goes through the rulesets service the REST API uses; a
// refusal is shown inline with the form as typed, and nothing changed.
import type { Router } from '../../http/router.ts';
import { redirectToLogin, sendPage } from '../web-session/web-request.ts';
import { adminRepo } from './repo-settings.service.ts';
import { editRulesetPage, newRulesetPage, rulesetPath, rulesetsPage } from './rulesets.pages.ts';
import { fieldsOfForm, fieldsOfRuleset, type RulesetFields } from './ruleset-form.service.ts';
import * as rulesets from './rulesets.service.ts';
import { RulesetForm, RulesetParams } from './settings.schemas.ts';
import { formErrors, PAGE, signedInPost } from './web.forms.ts';
import { viewerOf, type Viewer } from './web.request.ts';
import { RepoParams, TokenForm } from './web.schemas.ts';

/** Registered inside the pages' scope (web.routes.ts). */
export function rulesetPages(r: Router): void {
  const ctx = r.ctx;
  const title = (section: string, repo: { owner: { login: string }; name: string }) => `${section} · Rules · ${repo.owner.login}/${repo.name}`;

  /** A ruleset's edit page, with its form as typed when a save was refused. */
  async function editPage(viewer: Viewer, owner: string, repo: string, id: number, form?: { fields: RulesetFields; errors: string[] }): Promise<string> {
    const at = await rulesets.rulesetOf(ctx, viewer.actor, owner, repo, id);
    const fields = form?.fields ?? fieldsOfRuleset(at.ruleset, await rulesets.actorNames(ctx, at.repo, at.ruleset));
    return editRulesetPage(viewer.frame(title(at.ruleset.name, at.repo)), at.repo, at.ruleset, { fields, errors: form?.errors ?? [] });
  }

  r.get('/:owner/:repo/settings/rules', { schema: { params: RepoParams }, config: { ...PAGE, operationId: 'wharf/web-repo-rulesets' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const viewer = await viewerOf(request);
    if (!viewer.session) return redirectToLogin(request, reply);
    const v = await rulesets.rulesetsOf(ctx, viewer.actor, owner, repo);
    return sendPage(reply, rulesetsPage(viewer.frame(title('Rulesets', v.repo)), v));
  });

  r.get('/:owner/:repo/settings/rules/new', { schema: { params: RepoParams }, config: { ...PAGE, operationId: 'wharf/web-repo-new-ruleset' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const viewer = await viewerOf(request);
    if (!viewer.session) return redirectToLogin(request, reply);
    const at = await adminRepo(ctx, viewer.actor, owner, repo);
    return sendPage(reply, newRulesetPage(viewer.frame(title('New branch ruleset', at)), at, { fields: fieldsOfRuleset(null), errors: [] }));
  });

  r.post('/:owner/:repo/settings/rules', { schema: { params: RepoParams, body: RulesetForm }, config: { ...PAGE, operationId: 'wharf/web-repo-create-ruleset' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const f = fieldsOfForm(request.body);
    return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
      try {
        await rulesets.createRuleset(ctx, viewer.actor, owner, repo, f);
        const at = await adminRepo(ctx, viewer.actor, owner, repo);
        return reply.redirect(`${rulesetPath(at)}#rulesets`, 303);
      } catch (err) {
        const { status, messages } = formErrors(err);
        const at = await adminRepo(ctx, viewer.actor, owner, repo);
        return sendPage(reply.code(status), newRulesetPage(viewer.frame(title('New branch ruleset', at)), at, { fields: f, errors: messages }));
      }
    });
  });

  r.get('/:owner/:repo/settings/rules/:ruleset_id', { schema: { params: RulesetParams }, config: { ...PAGE, operationId: 'wharf/web-repo-ruleset' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const id = rulesets.rulesetId(request.params.ruleset_id);
    const viewer = await viewerOf(request);
    if (!viewer.session) return redirectToLogin(request, reply);
    return sendPage(reply, await editPage(viewer, owner, repo, id));
  });

  r.post('/:owner/:repo/settings/rules/:ruleset_id', { schema: { params: RulesetParams, body: RulesetForm }, config: { ...PAGE, operationId: 'wharf/web-repo-update-ruleset' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const id = rulesets.rulesetId(request.params.ruleset_id);
    const f = fieldsOfForm(request.body);
    return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
      try {
        await rulesets.updateRuleset(ctx, viewer.actor, owner, repo, id, f);
        const at = await adminRepo(ctx, viewer.actor, owner, repo);
        return reply.redirect(`${rulesetPath(at)}#rulesets`, 303);
      } catch (err) {
        const { status, messages } = formErrors(err);
        return sendPage(reply.code(status), await editPage(viewer, owner, repo, id, { fields: f, errors: messages }));
      }
    });
  });

  r.post('/:owner/:repo/settings/rules/:ruleset_id/delete', { schema: { params: RulesetParams, body: TokenForm }, config: { ...PAGE, operationId: 'wharf/web-repo-delete-ruleset' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const id = rulesets.rulesetId(request.params.ruleset_id);
    return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
      await rulesets.deleteRuleset(ctx, viewer.actor, owner, repo, id);
      const at = await adminRepo(ctx, viewer.actor, owner, repo);
      return reply.redirect(rulesetPath(at), 303);
    });
  });
}
