// Settings pages of the OAuth apps a user (or an organization it owns) registered, and
// the site-admin API over every app: GET /admin/oauth-apps, DELETE /admin/oauth-apps/{id}.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Router } from '../../http/router.ts';
import { NoContent } from '../../http/schema-types.ts';
import { ValidationError } from '../../domain/errors.ts';
import { actorOf, registerPageScope, csrfValid, frameOf, redirectToLogin, sendCsrfFailure, sendPage, sessionOf, PAGE } from '../web-session/web-request.ts';
import { AdminListQuery, AppForm, AppIdParams, CsrfForm, OauthAppRecord } from './oauth.schemas.ts';
import * as apps from './oauth-apps.service.ts';
import { appPage, developerAppsPage, newAppPage, type AppFormValues } from './oauth-apps.pages.ts';
import { oauthAppRecord } from './oauth.views.ts';

function formValues(body: AppForm): AppFormValues {
  return { owner: body.owner ?? '', name: body.name ?? '', url: body.url ?? '', callbackUrl: body.callback_url ?? '', description: body.description ?? '' };
}

function messagesOf(err: unknown): string[] {
  if (!(err instanceof ValidationError)) throw err;
  return err.messages();
}

export function oauthAppsRoutes(app: Router): void {
  const { urls } = app.ctx;

  app.get('/admin/oauth-apps', {
    schema: { querystring: AdminListQuery, response: { 200: Type.Array(OauthAppRecord) } },
    config: { operationId: 'wharf/admin-list-oauth-apps', acceptedScopes: ['site_admin'] },
  }, async (request) => {
    const list = await apps.listAllApps(request.server.ctx, request.actor, request.query.since ?? 0, { perPage: request.query.per_page ?? 30, offset: 0 });
    return list.map((a) => oauthAppRecord(a, urls));
  });

  app.delete('/admin/oauth-apps/:id', {
    schema: { params: AppIdParams, response: { 204: NoContent } },
    config: { operationId: 'wharf/admin-delete-oauth-app', acceptedScopes: ['site_admin'] },
  }, async (request, reply) => {
    await apps.adminDeleteApp(request.server.ctx, request.actor, Number(request.params.id));
    return reply.code(204).send();
  });

  app.register(async (scope: FastifyInstance) => {
    registerPageScope(scope);
    const r = scope as unknown as Router;

    r.get('/settings/developers', { config: { ...PAGE, operationId: 'wharf/oauth-apps-page' } }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      const list = await apps.listManagedApps(request.server.ctx, actorOf(request, session));
      return sendPage(reply, developerAppsPage(frameOf(session, 'OAuth apps'), list));
    });

    r.get('/settings/applications/new', { config: { ...PAGE, operationId: 'wharf/new-oauth-app-page' } }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      const owners = await apps.ownersFor(request.server.ctx, actorOf(request, session));
      return sendPage(reply, newAppPage(frameOf(session, 'New OAuth app'), owners.map((o) => o.login),
        { owner: session.user.login, name: '', url: '', callbackUrl: '', description: '' }));
    });

    r.post('/settings/applications/new', { schema: { body: AppForm }, config: { ...PAGE, operationId: 'wharf/create-oauth-app' } }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      if (!csrfValid(request, session, request.body.authenticity_token)) return sendCsrfFailure(reply, session);
      const ctx = request.server.ctx;
      const actor = actorOf(request, session);
      const values = formValues(request.body);
      try {
        const { app: created, clientSecret } = await apps.createApp(ctx, actor, { ...values, owner: values.owner || undefined });
        const owned = await apps.getManagedApp(ctx, actor, created.id);
        return sendPage(reply.code(201), appPage(frameOf(session, created.name), owned, { clientSecret, notice: 'Application registered.' }));
      } catch (err) {
        const owners = await apps.ownersFor(ctx, actor);
        return sendPage(reply.code(422), newAppPage(frameOf(session, 'New OAuth app'), owners.map((o) => o.login), values, messagesOf(err)));
      }
    });

    r.get('/settings/applications/:id', { schema: { params: AppIdParams }, config: { ...PAGE, operationId: 'wharf/oauth-app-page' } }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      const owned = await apps.getManagedApp(request.server.ctx, actorOf(request, session), Number(request.params.id));
      return sendPage(reply, appPage(frameOf(session, owned.app.name), owned));
    });

    r.post('/settings/applications/:id', { schema: { params: AppIdParams, body: AppForm }, config: { ...PAGE, operationId: 'wharf/update-oauth-app' } }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      const ctx = request.server.ctx;
      const actor = actorOf(request, session);
      const owned = await apps.getManagedApp(ctx, actor, Number(request.params.id));
      if (!csrfValid(request, session, request.body.authenticity_token)) return sendCsrfFailure(reply, session);
      const values = formValues(request.body);
      try {
        const updated = await apps.updateApp(ctx, actor, owned.app.id, values);
        return sendPage(reply, appPage(frameOf(session, updated.name), { ...owned, app: updated }, { notice: 'Application updated.' }));
      } catch (err) {
        return sendPage(reply.code(422), appPage(frameOf(session, owned.app.name), owned, { errors: messagesOf(err), values }));
      }
    });

    r.post('/settings/applications/:id/secret', { schema: { params: AppIdParams, body: CsrfForm }, config: { ...PAGE, operationId: 'wharf/reset-oauth-app-secret' } }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      const ctx = request.server.ctx;
      const actor = actorOf(request, session);
      const owned = await apps.getManagedApp(ctx, actor, Number(request.params.id));
      if (!csrfValid(request, session, request.body.authenticity_token)) return sendCsrfFailure(reply, session);
      const { app: updated, clientSecret } = await apps.regenerateSecret(ctx, actor, owned.app.id);
      return sendPage(reply, appPage(frameOf(session, updated.name), { ...owned, app: updated }, { clientSecret }));
    });

    r.post('/settings/applications/:id/delete', { schema: { params: AppIdParams, body: CsrfForm }, config: { ...PAGE, operationId: 'wharf/delete-oauth-app' } }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      const ctx = request.server.ctx;
      const actor = actorOf(request, session);
      const owned = await apps.getManagedApp(ctx, actor, Number(request.params.id));
      if (!csrfValid(request, session, request.body.authenticity_token)) return sendCsrfFailure(reply, session);
      await apps.deleteApp(ctx, actor, owned.app.id);
      return sendPage(reply, developerAppsPage(frameOf(session, 'OAuth apps'), await apps.listManagedApps(ctx, actor), `Deleted ${owned.app.name}.`));
    });
  });
}

