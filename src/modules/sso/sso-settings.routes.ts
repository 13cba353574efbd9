// The owner's SSO settings page (/orgs/{org}/settings/sso): the same service calls as
// the JSON API's /orgs/{org}/sso/configuration, from a signed-in browser.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ValidationError } from '../../domain/errors.ts';
import type { Router } from '../../http/router.ts';
import { actorOf, csrfValid, frameOf, redirectToLogin, registerPageScope, sendCsrfFailure, sendPage, sessionOf } from '../web-session/web-request.ts';
import type { WebSession } from '../web-session/web-session.service.ts';
import type { OrgSso } from './sso.model.ts';
import { ssoSettingsPage } from './sso.pages.ts';
import { OrgParams, SettingsBody } from './sso.schemas.ts';
import * as sso from './sso.service.ts';
import { ssoConfiguration } from './sso.views.ts';

const PAGE = { rateLimit: 'none' as const, rawResponse: true, appPermission: 'none' as const };

function render(request: FastifyRequest, reply: FastifyReply, session: WebSession, current: OrgSso, typed: { idp_entity_id?: string; sso_url?: string; certificate?: string } | null, message: { error?: string; notice?: string } = {}): FastifyReply {
  const view = ssoConfiguration(request.server.ctx.urls, current);
  return sendPage(reply, ssoSettingsPage(frameOf(session, 'SAML single sign-on'), {
    org: current.org.account.login, enabled: view.enabled, fingerprint: view.certificate_fingerprint,
    idpEntityId: typed?.idp_entity_id ?? view.idp_entity_id ?? '', ssoUrl: typed?.sso_url ?? view.sso_url ?? '',
    certificate: typed?.certificate ?? current.settings?.idpCertificate ?? '',
    spEntityId: view.sp_entity_id, acsUrl: view.acs_url, metadataUrl: view.metadata_url, ...message,
  }));
}

export function ssoSettingsRoutes(app: Router): void {
  app.register(async (scope: FastifyInstance) => {
    registerPageScope(scope);
    const r = scope as unknown as Router;

    r.get('/orgs/:org/settings/sso', { schema: { params: OrgParams }, config: { ...PAGE, operationId: 'wharf/org-sso-settings' } }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      return render(request, reply, session, await sso.getSso(request.server.ctx, actorOf(request, session), request.params.org), null);
    });

    r.post('/orgs/:org/settings/sso', { schema: { params: OrgParams, body: SettingsBody }, config: { ...PAGE, operationId: 'wharf/org-sso-settings-save' } }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      if (!csrfValid(request, session, request.body.authenticity_token)) return sendCsrfFailure(reply, session);
      const ctx = request.server.ctx;
      const actor = actorOf(request, session);
      const body = { idp_entity_id: request.body.idp_entity_id ?? '', sso_url: request.body.sso_url ?? '', certificate: request.body.certificate ?? '' };
      try {
        return render(request, reply, session, await sso.setSso(ctx, actor, request.params.org, body), null, { notice: 'SAML single sign-on settings saved.' });
      } catch (err) {
        if (!(err instanceof ValidationError)) throw err;
        const error = err.errors.map((e) => e.message ?? `${e.field} is required`).join(' ');
        return render(request, reply.code(422), session, await sso.getSso(ctx, actor, request.params.org), body, { error });
      }
    });

    r.post('/orgs/:org/settings/sso/disable', { schema: { params: OrgParams, body: SettingsBody }, config: { ...PAGE, operationId: 'wharf/org-sso-settings-disable' } }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      if (!csrfValid(request, session, request.body.authenticity_token)) return sendCsrfFailure(reply, session);
      const actor = actorOf(request, session);
      await sso.removeSso(request.server.ctx, actor, request.params.org);
      return render(request, reply, session, await sso.getSso(request.server.ctx, actor, request.params.org), null, { notice: 'SAML single sign-on is off.' });
    });
  });
}
