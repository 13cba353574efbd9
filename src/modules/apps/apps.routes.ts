// REST of app records: GET /apps/{app_slug}, the manifest conversion, and GET /app
// (the app itself, with its JSON web token); and the user-token routes (user-tokens.routes.ts).
import type { Router } from '../../http/router.ts';
import * as apps from './apps.service.ts';
import * as hookConfig from './app-hook-config.service.ts';
import { AppRecord, AppWithCredentials, CodeParams, HookConfigBody, HookConfigRecord, SlugParams } from './apps.schemas.ts';
import { appRecord, appWithCredentials, hookConfigRecord } from './apps.views.ts';
import { userTokensRoutes } from './user-tokens.routes.ts';

export function appsRoutes(app: Router): void {
  const { urls } = app.ctx;

  app.get('/apps/:app_slug', {
    schema: { params: SlugParams, response: { 200: AppRecord } },
    config: { operationId: 'apps/get-by-slug', acceptedScopes: [], appJwt: true },
  }, async (request) => appRecord(await apps.getAppBySlug(request.server.ctx, request.actor, request.params.app_slug), urls));

  app.post('/app-manifests/:code/conversions', {
    schema: { params: CodeParams, response: { 201: AppWithCredentials } },
    config: { operationId: 'apps/create-from-manifest', resource: 'Integration', acceptedScopes: [] },
  }, async (request, reply) => {
    const ctx = request.server.ctx;
    const creds = await apps.convertManifest(ctx, request.params.code);
    return reply.code(201).send(appWithCredentials(await apps.presentApp(ctx, creds.app), creds, urls));
  });

  app.get('/app', {
    schema: { response: { 200: AppRecord } },
    config: { operationId: 'apps/get-authenticated', acceptedScopes: [], appJwt: true },
  }, async (request) => appRecord(await apps.getAuthenticatedApp(request.server.ctx, request.actor), urls));

  app.get('/app/hook/config', {
    schema: { response: { 200: HookConfigRecord } },
    config: { operationId: 'apps/get-webhook-config-for-app', acceptedScopes: [], appJwt: true },
  }, async (request) => hookConfigRecord(await hookConfig.getHookConfig(request.server.ctx, request.actor)));

  app.patch('/app/hook/config', {
    schema: { body: HookConfigBody, response: { 200: HookConfigRecord } },
    config: { operationId: 'apps/update-webhook-config-for-app', resource: 'Hook', acceptedScopes: [], appJwt: true },
  }, async (request) => hookConfigRecord(await hookConfig.updateHookConfig(request.server.ctx, request.actor, request.body)));

  userTokensRoutes(app);
}
