// Organization SAML single sign-on: the owner's settings (JSON API), the service
// provider's metadata, the login and assertion consumer pages, token authorization,
// and upstream's credential authorizations.
import type { FastifyInstance } from 'fastify';
import { pageOf, paged } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { NoContent } from '../../http/schema-types.ts';
import { ForbiddenError, NotFoundError } from '../../domain/errors.ts';
import { csrfValid, frameOf, redirectToLogin, registerPageScope, safeReturnTo, sendCsrfFailure, sendPage, sessionOf } from '../web-session/web-request.ts';
import { errorPage } from '../web-session/web-session.views.ts';
import {
  AcsBody, AuthorizeBody, CredentialAuthorizationList, CredentialParams, CredentialsQuery, OrgParams, SetSsoBody, SsoConfiguration, SsoPageQuery,
} from './sso.schemas.ts';
import * as sso from './sso.service.ts';
import * as credentials from './credential-authorizations.service.ts';
import { authorizeTokenPage, messagePage } from './sso.pages.ts';
import { ssoSettingsRoutes } from './sso-settings.routes.ts';
import { credentialAuthorization, ssoConfiguration } from './sso.views.ts';

const ADMIN_SCOPES = ['admin:org', 'repo'];
const PAGE = { rateLimit: 'none' as const, rawResponse: true, appPermission: 'none' as const };

export function ssoRoutes(app: Router): void {
  const { urls } = app.ctx;

  app.get('/orgs/:org/sso/configuration', {
    schema: { params: OrgParams, response: { 200: SsoConfiguration } },
    config: { operationId: 'wharf/get-org-saml-sso', acceptedScopes: ADMIN_SCOPES, appPermission: 'none' },
  }, async (request) => ssoConfiguration(urls, await sso.getSso(request.server.ctx, request.actor, request.params.org)));

  app.put('/orgs/:org/sso/configuration', {
    schema: { params: OrgParams, body: SetSsoBody, response: { 200: SsoConfiguration } },
    config: { operationId: 'wharf/set-org-saml-sso', resource: 'SamlSso', acceptedScopes: ADMIN_SCOPES, appPermission: 'none' },
  }, async (request) => ssoConfiguration(urls, await sso.setSso(request.server.ctx, request.actor, request.params.org, request.body)));

  app.delete('/orgs/:org/sso/configuration', {
    schema: { params: OrgParams, response: { 204: NoContent } },
    config: { operationId: 'wharf/remove-org-saml-sso', acceptedScopes: ADMIN_SCOPES, appPermission: 'none' },
  }, async (request, reply) => {
    await sso.removeSso(request.server.ctx, request.actor, request.params.org);
    return reply.code(204).send(null);
  });

  app.get('/orgs/:org/credential-authorizations', {
    schema: { params: OrgParams, querystring: CredentialsQuery, response: { 200: CredentialAuthorizationList } },
    config: { operationId: 'orgs/list-saml-sso-authorizations', acceptedScopes: ['read:org', 'admin:org'], appPermission: 'none' },
  }, async (request) => {
    const p = pageOf(request.query);
    const page = await credentials.listCredentialAuthorizations(request.server.ctx, request.actor, request.params.org, request.query.login, p);
    return paged(page.items.map(credentialAuthorization), p, page.total);
  });

  app.delete('/orgs/:org/credential-authorizations/:credential_id', {
    schema: { params: CredentialParams, response: { 204: NoContent } },
    config: { operationId: 'orgs/remove-saml-sso-authorization', acceptedScopes: ['admin:org'], appPermission: 'none' },
  }, async (request, reply) => {
    await credentials.removeCredentialAuthorization(request.server.ctx, request.actor, request.params.org, request.params.credential_id);
    return reply.code(204).send(null);
  });

  // The identity provider reads this to configure Wharf as its service provider.
  app.get('/orgs/:org/sso/metadata', {
    schema: { params: OrgParams },
    config: { ...PAGE, operationId: 'wharf/org-saml-metadata' },
  }, async (request, reply) => reply.type('application/samlmetadata+xml; charset=utf-8')
    .send(await sso.serviceProviderMetadata(request.server.ctx, request.params.org)));

  ssoSettingsRoutes(app);

  app.register(async (scope: FastifyInstance) => {
    registerPageScope(scope);
    const r = scope as unknown as Router;

    // Starts a sign-in at the identity provider; with authorization_request (the
    // address of an SSO refusal), offers to authorize that token once signed in there.
    r.get('/orgs/:org/sso', {
      schema: { params: OrgParams, querystring: SsoPageQuery },
      config: { ...PAGE, operationId: 'wharf/org-sso' },
    }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      const ctx = request.server.ctx;
      const browser = { userId: session.user.id, sessionToken: session.token };
      const { org } = request.params;
      const asked = request.query.authorization_request;
      if (asked !== undefined) {
        const tokenId = Number(asked);
        if (!Number.isSafeInteger(tokenId) || tokenId <= 0) throw new NotFoundError();
        const token = await sso.requireOwnToken(ctx, browser, tokenId);
        const orgId = (await sso.getSsoOrganization(ctx, org)).account.id;
        if (await sso.hasSsoSession(ctx, browser, orgId)) return sendPage(reply, authorizeTokenPage(frameOf(session, 'Authorize token'), org, token));
      }
      // Back here (or to the page asked for) after the identity provider's answer.
      const relay = asked !== undefined ? safeReturnTo(request.url) : safeReturnTo(request.query.return_to);
      return reply.redirect(await sso.startLogin(ctx, browser, org, relay ?? '/settings'), 302);
    });

    // The assertion consumer service: the identity provider posts its signed answer here
    // (cross-site, so without cookies: the request it answers says who asked).
    r.post('/orgs/:org/saml/consume', {
      schema: { params: OrgParams, body: AcsBody },
      config: { ...PAGE, operationId: 'wharf/org-saml-consume' },
    }, async (request, reply) => {
      if (!request.body.SAMLResponse) return sendPage(reply.code(400), errorPage(null, null, 'Sign-in failed', 'The identity provider sent no response.'));
      try {
        await sso.completeLogin(request.server.ctx, request.params.org, request.body.SAMLResponse);
      } catch (err) {
        if (!(err instanceof ForbiddenError)) throw err;
        return sendPage(reply.code(403), errorPage(null, null, 'Sign-in failed', err.message));
      }
      return reply.redirect(safeReturnTo(request.body.RelayState) ?? '/settings', 303);
    });

    r.post('/orgs/:org/sso/authorize', {
      schema: { params: OrgParams, body: AuthorizeBody },
      config: { ...PAGE, operationId: 'wharf/org-sso-authorize-token' },
    }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      if (!csrfValid(request, session, request.body.authenticity_token)) return sendCsrfFailure(reply, session);
      const tokenId = Number(request.body.token_id);
      if (!Number.isSafeInteger(tokenId) || tokenId <= 0) throw new NotFoundError();
      const frame = frameOf(session, 'Token authorized');
      try {
        const org = await sso.authorizeToken(request.server.ctx, { userId: session.user.id, sessionToken: session.token }, request.params.org, tokenId);
        return sendPage(reply, messagePage(frame, 'Token authorized', `The token may now reach the resources of ${org.account.login}.`));
      } catch (err) {
        if (!(err instanceof ForbiddenError)) throw err;
        return sendPage(reply.code(403), messagePage(frame, 'Not authorized', err.message));
      }
    });
  });
}
