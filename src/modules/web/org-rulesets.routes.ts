// The organization rulesets settings pages, for the organization's owners (404 to anyone
// else): the list at /organizations/{org}/settings/rules (upstream's address), a new
// branch ruleset's form at …/rules/new, a ruleset's form at …/rules/{id} with its save
// and delete posts. Each write goes through the organization rulesets service the REST
// API uses; a refusal is shown inline with the form as typed, and nothing changed.
import type { Router } from '../../http/router.ts';
import type { Organization } from '../orgs/orgs.model.ts';
import { redirectToLogin, sendPage } from '../web-session/web-request.ts';
import { editOrgRulesetPage, newOrgRulesetPage, orgRulesetPath, orgRulesetsPage } from './org-rulesets.pages.ts';
import * as rulesets from './org-rulesets.service.ts';
import { ownedOrg } from './org-settings.service.ts';
import { rulesetId } from './rulesets.service.ts';
import { OrgRulesetForm, OrgRulesetParams } from './settings.schemas.ts';
import { formErrors, PAGE, signedInPost } from './web.forms.ts';
import { viewerOf, type Viewer } from './web.request.ts';
import { OrgParams, TokenForm } from './web.schemas.ts';

/** Registered inside the pages' scope (web.routes.ts). */
export function orgRulesetPages(r: Router): void {
  const ctx = r.ctx;
  const title = (section: string, org: Organization) => `${section} · Rules · ${org.account.login}`;

  /** A ruleset's edit page, with its form as typed when a save was refused. */
  async function editPage(viewer: Viewer, login: string, id: number, form?: { fields: rulesets.OrgRulesetFields; errors: string[] }): Promise<string> {
    const at = await rulesets.orgRulesetOf(ctx, viewer.actor, login, id);
    const fields = form?.fields ?? rulesets.orgFieldsOfRuleset(at.ruleset, await rulesets.orgActorNames(ctx, at.org, at.ruleset));
    return editOrgRulesetPage(viewer.frame(title(at.ruleset.name, at.org)), at.org, at.ruleset, { fields, errors: form?.errors ?? [] });
  }

  async function newPage(viewer: Viewer, login: string, form: { fields: rulesets.OrgRulesetFields; errors: string[] }): Promise<string> {
    const org = await ownedOrg(ctx, viewer.actor, login);
    return newOrgRulesetPage(viewer.frame(title('New branch ruleset', org)), org, form);
  }

  r.get('/organizations/:org/settings/rules', { schema: { params: OrgParams }, config: { ...PAGE, operationId: 'wharf/web-org-rulesets' } }, async (request, reply) => {
    const viewer = await viewerOf(request);
    if (!viewer.session) return redirectToLogin(request, reply);
    const v = await rulesets.orgRulesetsOf(ctx, viewer.actor, request.params.org);
    return sendPage(reply, orgRulesetsPage(viewer.frame(title('Rulesets', v.org)), v));
  });

  r.get('/organizations/:org/settings/rules/new', { schema: { params: OrgParams }, config: { ...PAGE, operationId: 'wharf/web-org-new-ruleset' } }, async (request, reply) => {
    const viewer = await viewerOf(request);
    if (!viewer.session) return redirectToLogin(request, reply);
    return sendPage(reply, await newPage(viewer, request.params.org, { fields: rulesets.orgFieldsOfRuleset(null), errors: [] }));
  });

  r.post('/organizations/:org/settings/rules', { schema: { params: OrgParams, body: OrgRulesetForm }, config: { ...PAGE, operationId: 'wharf/web-org-create-ruleset' } }, async (request, reply) => {
    const { org } = request.params;
    const f = rulesets.orgFieldsOfForm(request.body);
    return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
      try {
        await rulesets.createOrgRuleset(ctx, viewer.actor, org, f);
        return reply.redirect(`${orgRulesetPath(await ownedOrg(ctx, viewer.actor, org))}#rulesets`, 303);
      } catch (err) {
        const { status, messages } = formErrors(err);
        return sendPage(reply.code(status), await newPage(viewer, org, { fields: f, errors: messages }));
      }
    });
  });

  r.get('/organizations/:org/settings/rules/:ruleset_id', { schema: { params: OrgRulesetParams }, config: { ...PAGE, operationId: 'wharf/web-org-ruleset' } }, async (request, reply) => {
    const id = rulesetId(request.params.ruleset_id);
    const viewer = await viewerOf(request);
    if (!viewer.session) return redirectToLogin(request, reply);
    return sendPage(reply, await editPage(viewer, request.params.org, id));
  });

  r.post('/organizations/:org/settings/rules/:ruleset_id', { schema: { params: OrgRulesetParams, body: OrgRulesetForm }, config: { ...PAGE, operationId: 'wharf/web-org-update-ruleset' } }, async (request, reply) => {
    const { org } = request.params;
    const id = rulesetId(request.params.ruleset_id);
    const f = rulesets.orgFieldsOfForm(request.body);
    return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
      try {
        await rulesets.updateOrgRuleset(ctx, viewer.actor, org, id, f);
        return reply.redirect(`${orgRulesetPath(await ownedOrg(ctx, viewer.actor, org))}#rulesets`, 303);
      } catch (err) {
        const { status, messages } = formErrors(err);
        return sendPage(reply.code(status), await editPage(viewer, org, id, { fields: f, errors: messages }));
      }
    });
  });

  r.post('/organizations/:org/settings/rules/:ruleset_id/delete', { schema: { params: OrgRulesetParams, body: TokenForm }, config: { ...PAGE, operationId: 'wharf/web-org-delete-ruleset' } }, async (request, reply) => {
    const { org } = request.params;
    const id = rulesetId(request.params.ruleset_id);
    return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
      await rulesets.deleteOrgRuleset(ctx, viewer.actor, org, id);
      return reply.redirect(orgRulesetPath(await ownedOrg(ctx, viewer.actor, org)), 303);
    });
  });
}
