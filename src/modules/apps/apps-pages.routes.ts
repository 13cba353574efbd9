// Browser pages of apps: the manifest flow (/settings/apps/new and the organization's
// /organizations/{org}/settings/apps/new), the list of one's apps and each app's page
// with its private keys.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import type { Router } from '../../http/router.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import { actorOf, csrfValid, frameOf, redirectToLogin, registerPageScope, safeReturnTo, sendCsrfFailure, sendPage, sessionOf, PAGE } from '../web-session/web-request.ts';
import * as apps from './apps.service.ts';
import { appSettingsPage, appsListPage, manifestCodePage, manifestConfirmPage, newAppPage, type AppPageExtras } from './apps.pages.ts';
import { AppSettingsForm, DeleteAppForm, InstallForm, InstallQuery, KeyParams, ManifestForm, NewAppForm, OrgParams, SlugForm, SlugParams } from './apps.schemas.ts';
import { deleteApp } from './app-deletion.service.ts';
import * as installations from './installations.service.ts';
import { installedPage, installPage } from './installations.pages.ts';
import type { Account } from '../users/users.model.ts';
import type { App } from './apps.model.ts';

/**
 * A form post on one app's page by a signed-in manager: sign-in first, then the app
 * (404 to anyone else), then the page's CSRF token, and only then the action.
 */
async function managedAppAction(
  request: FastifyRequest, reply: FastifyReply, slug: string, token: string | undefined,
  act: (ctx: AppContext, actor: Actor) => Promise<FastifyReply>,
): Promise<FastifyReply> {
  const session = await sessionOf(request);
  if (!session) return redirectToLogin(request, reply);
  const ctx = request.server.ctx;
  const actor = actorOf(request, session);
  await apps.requireManagedApp(ctx, actor, slug);
  if (!csrfValid(request, session, token)) return sendCsrfFailure(reply, session);
  return act(ctx, actor);
}

function messagesOf(err: unknown): string[] {
  if (!(err instanceof ValidationError)) throw err;
  return err.messages();
}

/**
 * One step of the manifest flow. Without `confirm` the page shows what the manifest
 * asks for (nothing changes, so a third-party site's form may post here); with it,
 * and the page's CSRF token, the app is created and the browser goes to redirect_url
 * with the one-time code and the state the app sent.
 */
async function manifestStep(request: FastifyRequest, reply: FastifyReply, orgLogin: string | null, form: ManifestForm): Promise<FastifyReply> {
  const action = orgLogin === null ? '/settings/apps/new' : `/organizations/${encodeURIComponent(orgLogin)}/settings/apps/new`;
  const session = await sessionOf(request);
  const manifest = form.manifest ?? '';
  const state = form.state ?? '';
  if (!session) {
    // A posted manifest is carried through sign-in in the address (GET shows the same page).
    const back = safeReturnTo(`${action}?${new URLSearchParams({ manifest, state })}`);
    if (back) return reply.redirect(`/login?return_to=${encodeURIComponent(back)}`, 302);
    return redirectToLogin(request, reply);
  }
  const ctx = request.server.ctx;
  const actor = actorOf(request, session);
  const owner = await apps.registrationOwner(ctx, actor, orgLogin);
  const req = { action, owner: owner.login, manifest, state };
  const frame = frameOf(session, 'Create app');
  let fields: apps.AppFields;
  try {
    fields = apps.parseManifest(manifest);
    // Said on the confirmation page already, not only once the user confirms.
    apps.checkWebhookUrl(ctx, fields.webhookUrl);
  } catch (err) {
    return sendPage(reply.code(422), manifestConfirmPage(frame, req, null, messagesOf(err)));
  }
  if (form.confirm !== '1') return sendPage(reply, manifestConfirmPage(frame, req, fields));
  if (!csrfValid(request, session, form.authenticity_token)) return sendCsrfFailure(reply, session);
  let created: { app: apps.PresentedApp['app']; code: string };
  try {
    created = await apps.createFromManifest(ctx, actor, owner, fields);
  } catch (err) {
    return sendPage(reply.code(422), manifestConfirmPage(frame, req, fields, messagesOf(err)));
  }
  if (fields.redirectUrl) {
    const target = new URL(fields.redirectUrl);
    target.searchParams.set('code', created.code);
    if (state) target.searchParams.set('state', state);
    return reply.redirect(target.toString(), 302);
  }
  return sendPage(reply.code(201), manifestCodePage(frame, await apps.presentApp(ctx, created.app), created.code));
}

async function settingsPage(request: FastifyRequest, reply: FastifyReply, slug: string, extras: AppPageExtras = {}, status = 200): Promise<FastifyReply> {
  const session = (await sessionOf(request))!;
  const ctx = request.server.ctx;
  const actor = actorOf(request, session);
  const app = await apps.requireManagedApp(ctx, actor, slug);
  const keys = await apps.listKeys(ctx, actor, slug);
  return sendPage(reply.code(status), appSettingsPage(frameOf(session, app.name), await apps.presentApp(ctx, app), keys, extras));
}

/** The accounts the user may install `app` on (a private app: its owner's only); 404 when none. */
async function installChoices(request: FastifyRequest, app: App, wanted: string | undefined): Promise<{ targets: Account[]; target: Account }> {
  const session = (await sessionOf(request))!;
  const ctx = request.server.ctx;
  const all = await installations.installTargets(ctx, actorOf(request, session));
  const targets = app.public ? all : all.filter((a) => a.id === app.ownerId);
  const target = wanted === undefined ? targets[0] : targets.find((a) => a.login.toLowerCase() === wanted.toLowerCase());
  if (!target) throw new NotFoundError();
  return { targets, target };
}

/** The new-app form: registers the app and shows its page with the client secret, once. */
async function createByHand(request: FastifyRequest, reply: FastifyReply, form: AppSettingsForm): Promise<FastifyReply> {
  const session = await sessionOf(request);
  if (!session) return redirectToLogin(request, reply);
  if (!csrfValid(request, session, form.authenticity_token)) return sendCsrfFailure(reply, session);
  const ctx = request.server.ctx;
  const actor = actorOf(request, session);
  const owners = await installations.installTargets(ctx, actor);
  const owner = owners.find((o) => o.login.toLowerCase() === (form.owner ?? session.user.login).toLowerCase());
  try {
    if (!owner) throw ValidationError.field('Integration', 'owner', 'invalid', 'You can register apps for yourself and for organizations you own only');
    const { app, clientSecret } = await apps.createByHand(ctx, actor, owner, apps.fieldsFromForm(form));
    return settingsPage(request, reply, app.slug, { clientSecret, notice: 'App registered.' }, 201);
  } catch (err) {
    return sendPage(reply.code(422), newAppPage(frameOf(session, 'New app'), owners.map((o) => o.login), form.owner ?? session.user.login, form, messagesOf(err)));
  }
}

export function appsPagesRoutes(app: Router): void {
  app.register(async (scope: FastifyInstance) => {
    registerPageScope(scope);
    const r = scope as unknown as Router;

    r.get('/settings/apps/new', { schema: { querystring: ManifestForm }, config: { ...PAGE, operationId: 'wharf/app-manifest-page' } }, async (request, reply) => {
      if (request.query.manifest !== undefined) return manifestStep(request, reply, null, { manifest: request.query.manifest, state: request.query.state });
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      const owners = await installations.installTargets(request.server.ctx, actorOf(request, session));
      return sendPage(reply, newAppPage(frameOf(session, 'New app'), owners.map((o) => o.login), session.user.login, {}));
    });
    r.post('/settings/apps/new', { schema: { body: NewAppForm }, config: { ...PAGE, operationId: 'wharf/create-app-from-manifest' } }, async (request, reply) => {
      if (request.body.manifest !== undefined) return manifestStep(request, reply, null, request.body);
      return createByHand(request, reply, request.body);
    });
    r.get('/organizations/:org/settings/apps/new', { schema: { params: OrgParams, querystring: ManifestForm }, config: { ...PAGE, operationId: 'wharf/org-app-manifest-page' } },
      async (request, reply) => manifestStep(request, reply, request.params.org, { manifest: request.query.manifest, state: request.query.state }));
    r.post('/organizations/:org/settings/apps/new', { schema: { params: OrgParams, body: ManifestForm }, config: { ...PAGE, operationId: 'wharf/create-org-app-from-manifest' } },
      async (request, reply) => manifestStep(request, reply, request.params.org, request.body));

    r.get('/apps/:app_slug/installations/new', { schema: { params: SlugParams, querystring: InstallQuery }, config: { ...PAGE, operationId: 'wharf/install-app-page' } }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      const ctx = request.server.ctx;
      const found = await apps.findAppBySlug(ctx, request.params.app_slug);
      if (!found) throw new NotFoundError();
      const { targets, target } = await installChoices(request, found, request.query.target);
      return sendPage(reply, installPage(frameOf(session, `Install ${found.name}`), found, targets, target, await installations.repositoriesOfAccount(ctx, target)));
    });

    r.post('/apps/:app_slug/installations/new', { schema: { params: SlugParams, body: InstallForm }, config: { ...PAGE, operationId: 'wharf/install-app' } }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      const ctx = request.server.ctx;
      const found = await apps.findAppBySlug(ctx, request.params.app_slug);
      if (!found) throw new NotFoundError();
      const { targets, target } = await installChoices(request, found, request.body.target);
      if (!csrfValid(request, session, request.body.authenticity_token)) return sendCsrfFailure(reply, session);
      const body = request.body as Record<string, string | undefined>;
      const selection = body.repository_selection === 'selected' ? 'selected' : 'all';
      const repositoryIds = Object.keys(body).filter((k) => /^repo_\d{1,15}$/.test(k) && body[k] === '1').map((k) => Number(k.slice(5)));
      const frame = frameOf(session, `Install ${found.name}`);
      try {
        const { installation, created } = await installations.install(ctx, actorOf(request, session), found, target, { selection, repositoryIds });
        if (found.setupUrl) {
          const setup = new URL(found.setupUrl);
          setup.searchParams.set('installation_id', String(installation.id));
          setup.searchParams.set('setup_action', created ? 'install' : 'update');
          return reply.redirect(setup.toString(), 302);
        }
        return sendPage(reply.code(created ? 201 : 200), installedPage(frame, found, target, installation));
      } catch (err) {
        return sendPage(reply.code(422), installPage(frame, found, targets, target, await installations.repositoriesOfAccount(ctx, target), messagesOf(err)));
      }
    });

    r.get('/settings/apps', { config: { ...PAGE, operationId: 'wharf/apps-page' } }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      return sendPage(reply, appsListPage(frameOf(session, 'Apps'), await apps.listManagedApps(request.server.ctx, actorOf(request, session))));
    });

    r.get('/settings/apps/:app_slug', { schema: { params: SlugParams }, config: { ...PAGE, operationId: 'wharf/app-settings-page' } }, async (request, reply) => {
      if (!await sessionOf(request)) return redirectToLogin(request, reply);
      return settingsPage(request, reply, request.params.app_slug);
    });

    r.post('/settings/apps/:app_slug', { schema: { params: SlugParams, body: AppSettingsForm }, config: { ...PAGE, operationId: 'wharf/update-app' } }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      const ctx = request.server.ctx;
      const actor = actorOf(request, session);
      const found = await apps.requireManagedApp(ctx, actor, request.params.app_slug);
      if (!csrfValid(request, session, request.body.authenticity_token)) return sendCsrfFailure(reply, session);
      try {
        await apps.updateSettings(ctx, actor, found.slug, apps.fieldsFromForm({ ...request.body, name: found.name }));
        return settingsPage(request, reply, found.slug, { notice: 'App updated.' });
      } catch (err) {
        return settingsPage(request, reply, found.slug, { values: request.body, errors: messagesOf(err) }, 422);
      }
    });

    r.post('/settings/apps/:app_slug/secret', { schema: { params: SlugParams, body: SlugForm }, config: { ...PAGE, operationId: 'wharf/reset-app-secret' } }, async (request, reply) => {
      return managedAppAction(request, reply, request.params.app_slug, request.body.authenticity_token, async (ctx, actor) => {
        const { clientSecret } = await apps.regenerateClientSecret(ctx, actor, request.params.app_slug);
        return settingsPage(request, reply, request.params.app_slug, { clientSecret });
      });
    });

    r.post('/settings/apps/:app_slug/keys', { schema: { params: SlugParams, body: SlugForm }, config: { ...PAGE, operationId: 'wharf/generate-app-key' } }, async (request, reply) => {
      return managedAppAction(request, reply, request.params.app_slug, request.body.authenticity_token, async (ctx, actor) => {
        const { pem } = await apps.generateKey(ctx, actor, request.params.app_slug);
        return settingsPage(request, reply, request.params.app_slug, { pem, notice: 'Private key generated.' }, 201);
      });
    });

    r.post('/settings/apps/:app_slug/delete', { schema: { params: SlugParams, body: DeleteAppForm }, config: { ...PAGE, operationId: 'wharf/delete-app' } }, async (request, reply) => {
      return managedAppAction(request, reply, request.params.app_slug, request.body.authenticity_token, async (ctx, actor) => {
        try {
          const deleted = await deleteApp(ctx, actor, request.params.app_slug, request.body.verify);
          const session = (await sessionOf(request))!;
          return sendPage(reply, appsListPage(frameOf(session, 'Apps'), await apps.listManagedApps(ctx, actor), `Deleted ${deleted.name}.`));
        } catch (err) {
          return settingsPage(request, reply, request.params.app_slug, { deleteErrors: messagesOf(err) }, 422);
        }
      });
    });

    r.post('/settings/apps/:app_slug/keys/:key_id/delete', { schema: { params: KeyParams, body: SlugForm }, config: { ...PAGE, operationId: 'wharf/revoke-app-key' } }, async (request, reply) => {
      return managedAppAction(request, reply, request.params.app_slug, request.body.authenticity_token, async (ctx, actor) => {
        await apps.revokeKey(ctx, actor, request.params.app_slug, Number(request.params.key_id));
        return settingsPage(request, reply, request.params.app_slug, { notice: 'Private key revoked.' });
      });
    });
  });
}
