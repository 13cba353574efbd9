// The settings page of a user's SSH and GPG keys: /settings/keys, the add forms
// (/settings/ssh/new, /settings/gpg/new) and deletions, over the same services as
// /user/keys and /user/gpg_keys with the signed-in user as the caller.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Router } from '../../http/router.ts';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { ValidationError } from '../../domain/errors.ts';
import * as gpg from '../verification/verification.keys.ts';
import { actorOf, frameOf, redirectToLogin, registerPageScope, sendPage, sessionOf, signedInForm, PAGE } from '../web-session/web-request.ts';
import type { WebSession } from '../web-session/web-session.service.ts';
import { keysPage, type KeyFormState, type KeysPageData } from './keys.pages.ts';
import { KeyPageForm, PageCsrfForm, PageKeyIdParams } from './keys.schemas.ts';
import * as keys from './keys.service.ts';

/** Every key of the account on one page: more than anyone registers. */
const ALL = 1000;

async function keysOf(ctx: AppContext, actor: Actor): Promise<KeysPageData> {
  const [ssh, gpgKeys] = await Promise.all([keys.listOwnKeys(ctx, actor, ALL, 0), gpg.listOwnKeys(ctx, actor, ALL, 0)]);
  return { ssh: ssh.keys, gpg: gpgKeys.keys };
}

async function renderKeys(request: FastifyRequest, reply: FastifyReply, session: WebSession, options: Parameters<typeof keysPage>[2] = {}): Promise<FastifyReply> {
  const data = await keysOf(request.server.ctx, actorOf(request, session));
  return sendPage(reply, keysPage(frameOf(session, 'SSH and GPG keys'), data, options));
}

function messagesOf(err: unknown): string[] {
  if (!(err instanceof ValidationError)) throw err;
  return err.messages();
}

export function keysPagesRoutes(app: Router): void {
  app.register(async (scope: FastifyInstance) => {
    registerPageScope(scope);
    const r = scope as unknown as Router;

    r.get('/settings/keys', { config: { ...PAGE, operationId: 'wharf/keys-page' } }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      return renderKeys(request, reply, session);
    });

    for (const kind of ['ssh', 'gpg'] as const) {
      r.post(`/settings/${kind}/new`, { schema: { body: KeyPageForm }, config: { ...PAGE, operationId: `wharf/create-${kind}-key` } }, async (request, reply) => {
        const { title = '', key = '' } = request.body;
        return signedInForm(request, reply, request.body.authenticity_token, async (session) => {
          const ctx = request.server.ctx;
          const actor = actorOf(request, session);
          try {
            if (kind === 'ssh') {
              const added = await keys.createOwnKey(ctx, actor, { key, title });
              return renderKeys(request, reply.code(201), session, { notice: `SSH key ${added.title} added.` });
            }
            const added = await gpg.createKey(ctx, actor, { armored_public_key: key, name: title.trim() || null });
            return renderKeys(request, reply.code(201), session, { notice: `GPG key ${added.key.keyId} added.` });
          } catch (err) {
            const form: KeyFormState = { kind, title, key, errors: messagesOf(err) };
            return renderKeys(request, reply.code(422), session, { form });
          }
        });
      });

      r.post(`/settings/${kind}/:id/delete`, { schema: { params: PageKeyIdParams, body: PageCsrfForm }, config: { ...PAGE, operationId: `wharf/delete-${kind}-key` } }, async (request, reply) =>
        signedInForm(request, reply, request.body.authenticity_token, async (session) => {
          const ctx = request.server.ctx;
          const actor = actorOf(request, session);
          const id = Number(request.params.id);
          await (kind === 'ssh' ? keys.deleteOwnKey(ctx, actor, id) : gpg.deleteKey(ctx, actor, id));
          return renderKeys(request, reply, session, { notice: `${kind === 'ssh' ? 'SSH' : 'GPG'} key deleted.` });
        }));
    }
  });
}
