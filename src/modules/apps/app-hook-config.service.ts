// The app's webhook configuration, read and changed by the app with its JWT
// (GET/PATCH /app/hook/config). The secret is sealed at rest and never shown.
import { inTransaction, type AppContext } from '../../context.ts';
import { requireAppActor, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { NotFoundError, ValidationError, type FieldError } from '../../domain/errors.ts';
import { urlProblem } from './app-fields.ts';
import { unreachableWebhookUrl } from './app-webhook-url.ts';
import type { App } from './apps.model.ts';
import { requireApp, sealWebhookSecret, storedWebhookSecret, toApp } from './apps.service.ts';
import { appHook } from '../hooks/hooks.apps.ts';
import { syncHookOf } from './app-webhooks.service.ts';
import * as store from './apps.store.ts';

export interface HookConfig {
  url: string | null;
  contentType: 'json' | 'form';
  insecureSsl: string;
  hasSecret: boolean;
}

export interface HookConfigInput {
  url?: unknown;
  content_type?: unknown;
  secret?: unknown;
  insecure_ssl?: unknown;
}

async function hookConfigOf(ctx: AppContext, app: App): Promise<HookConfig> {
  return { url: app.webhookUrl, contentType: app.webhookContentType, insecureSsl: app.webhookInsecureSsl, hasSecret: await store.webhookSecretOf(ctx.db, app.id) !== null };
}

/** GET /app/hook/config (JWT). */
export async function getHookConfig(ctx: AppContext, actor: Actor): Promise<HookConfig> {
  return hookConfigOf(ctx, await requireApp(ctx, requireAppActor(actor)));
}

/** PATCH /app/hook/config (JWT): only the fields given change; every problem is reported at once. */
export async function updateHookConfig(ctx: AppContext, actor: Actor, input: HookConfigInput): Promise<HookConfig> {
  const app = await requireApp(ctx, requireAppActor(actor));
  const errors: FieldError[] = [];
  const bad = (field: string, message: string) => errors.push({ resource: 'Hook', field, code: 'invalid', message });
  if (input.url !== undefined && urlProblem(input.url)) bad('url', 'url must be an http or https URL');
  else {
    const unreachable = unreachableWebhookUrl(ctx, input.url, 'Hook', 'url');
    if (unreachable) errors.push(unreachable);
  }
  if (input.content_type !== undefined && input.content_type !== 'json' && input.content_type !== 'form') bad('content_type', 'content_type must be one of: json, form');
  const insecure = typeof input.insecure_ssl === 'number' ? String(input.insecure_ssl) : input.insecure_ssl;
  if (insecure !== undefined && insecure !== '0' && insecure !== '1') bad('insecure_ssl', 'insecure_ssl must be "0" or "1"');
  if (input.secret !== undefined && input.secret !== null && (typeof input.secret !== 'string' || input.secret.length > 256)) bad('secret', 'secret must be a string of at most 256 characters');
  if (errors.length) throw new ValidationError(errors);
  const changes: Parameters<typeof store.updateApp>[2] = { updated_at: nowIso(ctx.clock) };
  if (input.url !== undefined) changes.webhook_url = input.url as string;
  if (input.content_type !== undefined) changes.webhook_content_type = input.content_type as string;
  if (insecure !== undefined) changes.webhook_insecure_ssl = insecure as string;
  if (input.secret !== undefined) changes.webhook_secret = input.secret ? sealWebhookSecret(ctx, input.secret as string) : null;
  return inTransaction(ctx, async (tx) => {
    const hadHook = await appHook(tx, app.id) !== null;
    const row = await store.updateApp(tx.db, app.id, changes);
    if (!row) throw new NotFoundError();
    const updated = toApp(row);
    // A hook made now (the app had no URL) is signed with the stored secret.
    const secret = input.secret !== undefined ? (input.secret as string | null) || null
      : hadHook ? undefined : await storedWebhookSecret(tx, app.id);
    await syncHookOf(tx, updated, secret);
    return hookConfigOf(tx, updated);
  });
}
