// App records: registration from a manifest (the manifest flow) and the conversion of
// its code into credentials, reading an app, its keys, and the app's own view of itself.
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { inTransaction, type AppContext } from '../../context.ts';
import { requireAppActor, requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import { newClientId, newClientSecret, sha256Hex } from '../auth/secrets.ts';
import * as orgs from '../orgs/orgs.service.ts';
import * as users from '../users/users.service.ts';
import type { Account } from '../users/users.model.ts';
import type { Permissions } from './app-permissions.ts';
import type { App, AppCredentials, AppKey } from './apps.model.ts';
import { slugOf, type AppFields } from './app-fields.ts';
import { appHook } from '../hooks/hooks.apps.ts';
import { syncHookOf } from './app-webhooks.service.ts';
import { unreachableWebhookUrl } from './app-webhook-url.ts';

export { fieldsFromForm, parseManifest, type AppFields, type AppForm } from './app-fields.ts';
import * as store from './apps.store.ts';

const RESOURCE = 'Integration';
/** A manifest code converts within an hour, as upstream's. */
export const MANIFEST_CODE_SECONDS = 60 * 60;
const WEBHOOK_SECRET_PURPOSE = 'apps.webhook_secret';

export function toApp(row: store.AppRow): App {
  return {
    id: row.id, ownerId: row.owner_id, botUserId: row.bot_user_id, slug: row.slug, name: row.name, description: row.description,
    externalUrl: row.external_url, callbackUrl: row.callback_url, setupUrl: row.setup_url, clientId: row.client_id,
    webhookUrl: row.webhook_url, webhookContentType: row.webhook_content_type === 'form' ? 'form' : 'json',
    webhookInsecureSsl: row.webhook_insecure_ssl, webhookActive: row.webhook_active === 1, public: row.public === 1,
    permissions: JSON.parse(row.permissions) as Permissions, events: JSON.parse(row.events) as string[],
    userTokensExpire: row.user_tokens_expire !== 0, createdAt: row.created_at, updatedAt: row.updated_at,
  };
}

function toKey(row: store.KeyRow): AppKey {
  return { id: row.id, appId: row.app_id, publicKey: row.public_key, fingerprint: row.fingerprint, createdAt: row.created_at };
}

/** The account an app is registered for: the actor, or an organization the actor owns (404 otherwise). */
export async function registrationOwner(ctx: AppContext, actor: Actor, orgLogin: string | null): Promise<Account> {
  const user = requireUser(actor);
  if (orgLogin === null) return users.requireAccount(ctx, user.login);
  const org = await orgs.requireOrganization(ctx, orgLogin);
  if (!await orgs.ownsOrganization(ctx, actor, org)) throw new NotFoundError();
  return org.account;
}

/** Whether the actor manages apps of `ownerId`: its own, or an organization's it owns. */
export async function managesOwner(ctx: AppContext, actor: Actor, ownerId: number): Promise<boolean> {
  if (!actor.user) return false;
  if (ownerId === actor.user.id) return true;
  const org = (await orgs.organizationsByIds(ctx, [ownerId])).get(ownerId);
  return org !== undefined && await orgs.ownsOrganization(ctx, actor, org);
}

export function sealWebhookSecret(ctx: AppContext, secret: string): string {
  return ctx.secrets.seal(secret, WEBHOOK_SECRET_PURPOSE);
}

export function openWebhookSecret(ctx: AppContext, sealed: string): string {
  return ctx.secrets.open(sealed, WEBHOOK_SECRET_PURPOSE);
}

/** The app's webhook secret in plaintext (a hook created for an app later is signed with it). */
export async function storedWebhookSecret(ctx: AppContext, appId: number): Promise<string | null> {
  const sealed = await store.webhookSecretOf(ctx.db, appId);
  return sealed === null ? null : openWebhookSecret(ctx, sealed);
}

/**
 * Refuses a webhook URL deliveries may not reach (a private or loopback address
 * literal), as a repository hook's is refused: when an app is registered (from a
 * manifest or the form), changed, or its manifest code converted.
 */
export function checkWebhookUrl(ctx: AppContext, url: string | null): void {
  const unreachable = unreachableWebhookUrl(ctx, url, RESOURCE, 'hook_attributes.url');
  if (unreachable) throw new ValidationError([unreachable]);
}

async function hasHook(ctx: AppContext, appId: number): Promise<boolean> {
  return await appHook(ctx, appId) !== null;
}

/** Stores a new app (and its bot account) for `owner` with the given client secret hash. */
async function insertNewApp(ctx: AppContext, actor: Actor, owner: Account, fields: AppFields, clientSecretHash: string, then: (tx: AppContext, app: App) => Promise<void>): Promise<App> {
  if (!await managesOwner(ctx, actor, owner.id)) throw new NotFoundError();
  checkWebhookUrl(ctx, fields.webhookUrl);
  const slug = slugOf(fields.name);
  // A deleted app's bot stays (its records keep their author), and so its name stays taken.
  if (await store.slugOrNameTaken(ctx.db, slug, fields.name.toLowerCase()) || await users.findAccount(ctx, `${slug}[bot]`)) {
    throw ValidationError.field(RESOURCE, 'name', 'already_exists', 'Name is already in use');
  }
  const now = nowIso(ctx.clock);
  const webhookSecret = randomBytes(20).toString('hex');
  return inTransaction(ctx, async (tx) => {
    const bot = await users.createBotAccount(tx, `${slug}[bot]`);
    const row = await store.insertApp(tx.db, {
      owner_id: owner.id, bot_user_id: bot.id, slug, name: fields.name, name_lower: fields.name.toLowerCase(), description: fields.description,
      external_url: fields.externalUrl, callback_url: fields.callbackUrl, setup_url: fields.setupUrl,
      client_id: newClientId(), client_secret_hash: clientSecretHash,
      webhook_url: fields.webhookUrl, webhook_secret: sealWebhookSecret(tx, webhookSecret),
      webhook_content_type: 'json', webhook_insecure_ssl: '0', webhook_active: fields.webhookActive ? 1 : 0,
      public: fields.public ? 1 : 0, permissions: JSON.stringify(fields.permissions), events: JSON.stringify(fields.events),
      user_tokens_expire: fields.userTokensExpire ? 1 : 0, created_at: now, updated_at: now,
    });
    const app = toApp(row);
    await syncHookOf(tx, app, webhookSecret);
    await then(tx, app);
    return app;
  });
}

/**
 * Registers the app the signed-in user confirmed and returns it with its one-time
 * manifest code. The client secret stored now is one nobody knows: the conversion
 * replaces it, so only the holder of the code ever learns a working secret.
 */
export async function createFromManifest(ctx: AppContext, actor: Actor, owner: Account, fields: AppFields): Promise<{ app: App; code: string }> {
  const code = randomBytes(20).toString('hex');
  const expires = new Date(ctx.clock.now().getTime() + MANIFEST_CODE_SECONDS * 1000).toISOString();
  const app = await insertNewApp(ctx, actor, owner, fields, sha256Hex(newClientSecret()),
    (tx, created) => store.insertManifestCode(tx.db, sha256Hex(code), created.id, expires));
  return { app, code };
}

/** Registers an app from the settings form; its client secret is returned this once. */
export async function createByHand(ctx: AppContext, actor: Actor, owner: Account, fields: AppFields): Promise<{ app: App; clientSecret: string }> {
  const clientSecret = newClientSecret();
  const app = await insertNewApp(ctx, actor, owner, fields, sha256Hex(clientSecret), async () => {});
  return { app, clientSecret };
}

/**
 * Changes an app's settings (its name, and so its slug and bot, stay). Installations
 * keep the permissions and events they accepted, as upstream's do until their owners
 * accept the new ones.
 */
export async function updateSettings(ctx: AppContext, actor: Actor, slug: string, fields: AppFields): Promise<App> {
  const app = await requireManagedApp(ctx, actor, slug);
  checkWebhookUrl(ctx, fields.webhookUrl);
  return inTransaction(ctx, async (tx) => {
    const row = await store.updateApp(tx.db, app.id, {
      description: fields.description, external_url: fields.externalUrl, callback_url: fields.callbackUrl, setup_url: fields.setupUrl,
      webhook_url: fields.webhookUrl, webhook_active: fields.webhookActive ? 1 : 0, public: fields.public ? 1 : 0,
      permissions: JSON.stringify(fields.permissions), events: JSON.stringify(fields.events),
      user_tokens_expire: fields.userTokensExpire ? 1 : 0, updated_at: nowIso(tx.clock),
    });
    if (!row) throw new NotFoundError();
    const updated = toApp(row);
    await syncHookOf(tx, updated, await hasHook(tx, app.id) ? undefined : await storedWebhookSecret(tx, app.id));
    return updated;
  });
}

/** A new client secret, shown this once; the old one stops working at once. */
export async function regenerateClientSecret(ctx: AppContext, actor: Actor, slug: string): Promise<{ app: App; clientSecret: string }> {
  const app = await requireManagedApp(ctx, actor, slug);
  const clientSecret = newClientSecret();
  await store.updateApp(ctx.db, app.id, { client_secret_hash: sha256Hex(clientSecret), updated_at: nowIso(ctx.clock) });
  return { app, clientSecret };
}

/** A new RSA key pair for the app: Wharf keeps the public key; the private key (PEM) is returned this once. */
async function addKey(ctx: AppContext, appId: number): Promise<{ key: AppKey; pem: string }> {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const der = publicKey.export({ type: 'spki', format: 'der' });
  const row = await store.insertKey(ctx.db, {
    app_id: appId, public_key: publicPem, fingerprint: `SHA256:${createHash('sha256').update(der).digest('base64')}`,
    created_at: nowIso(ctx.clock),
  });
  return { key: toKey(row), pem: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString() };
}

/**
 * POST /app-manifests/{code}/conversions: the code (single use, one hour) becomes the
 * app's credentials: a fresh client secret, the webhook secret and a first private key.
 */
export async function convertManifest(ctx: AppContext, code: string): Promise<AppCredentials> {
  return inTransaction(ctx, async (tx) => {
    const taken = await store.takeManifestCode(tx.db, sha256Hex(code));
    if (!taken || Date.parse(taken.expires_at) <= tx.clock.now().getTime()) throw new NotFoundError();
    // An app registered before its URL was judged: no credentials (the code stays, the transaction undone).
    const registered = await store.findAppById(tx.db, taken.app_id);
    if (registered) checkWebhookUrl(tx, registered.webhook_url);
    const clientSecret = newClientSecret();
    const row = await store.updateApp(tx.db, taken.app_id, { client_secret_hash: sha256Hex(clientSecret) });
    if (!row) throw new NotFoundError();
    const sealed = await store.webhookSecretOf(tx.db, row.id);
    const { pem } = await addKey(tx, row.id);
    return { app: toApp(row), clientSecret, webhookSecret: sealed === null ? null : openWebhookSecret(tx, sealed), pem };
  });
}

export interface PresentedApp {
  app: App;
  owner: Account | null;
  installationsCount: number;
}

export async function presentApps(ctx: AppContext, list: readonly App[]): Promise<PresentedApp[]> {
  const owners = await users.accountsByIds(ctx, [...new Set(list.map((a) => a.ownerId))]);
  const counts = await store.countInstallations(ctx.db, list.map((a) => a.id));
  return list.map((app) => ({ app, owner: owners.get(app.ownerId) ?? null, installationsCount: counts.get(app.id) ?? 0 }));
}

export async function presentApp(ctx: AppContext, app: App): Promise<PresentedApp> {
  return (await presentApps(ctx, [app]))[0]!;
}

/** GET /apps/{app_slug}: a public app to anyone; a private one to those who manage it (and to itself). */
export async function getAppBySlug(ctx: AppContext, actor: Actor, slug: string): Promise<PresentedApp> {
  const row = await store.findAppBySlug(ctx.db, slug);
  if (!row) throw new NotFoundError();
  const app = toApp(row);
  const self = actor.integration?.appId === app.id;
  if (!app.public && !self && !await managesOwner(ctx, actor, app.ownerId)) throw new NotFoundError();
  return presentApp(ctx, app);
}

/** The app of a JSON web token (GET /app). */
export async function getAuthenticatedApp(ctx: AppContext, actor: Actor): Promise<PresentedApp> {
  return presentApp(ctx, await requireApp(ctx, requireAppActor(actor)));
}

export async function requireApp(ctx: AppContext, id: number): Promise<App> {
  const row = Number.isSafeInteger(id) ? await store.findAppById(ctx.db, id) : undefined;
  if (!row) throw new NotFoundError();
  return toApp(row);
}

/** The app of a slug, whoever asks (the install page decides what the user may do with it). */
export async function findAppBySlug(ctx: AppContext, slug: string): Promise<App | null> {
  const row = await store.findAppBySlug(ctx.db, slug);
  return row ? toApp(row) : null;
}

export async function findAppByIssuer(ctx: AppContext, iss: number | string): Promise<App | null> {
  const numeric = typeof iss === 'number' ? iss : /^\d{1,15}$/.test(iss) ? Number(iss) : null;
  const row = numeric !== null ? await store.findAppById(ctx.db, numeric) : await store.findAppByClientId(ctx.db, String(iss));
  return row ? toApp(row) : null;
}

export async function publicKeysOf(ctx: AppContext, appId: number): Promise<string[]> {
  return (await store.listKeys(ctx.db, appId)).map((k) => k.public_key);
}

export async function appsByIds(ctx: AppContext, ids: readonly number[]): Promise<Map<number, App>> {
  return new Map((await store.appsByIds(ctx.db, ids)).map((r) => [r.id, toApp(r)]));
}

/** The app if the actor manages it; 404 otherwise. */
export async function requireManagedApp(ctx: AppContext, actor: Actor, slug: string): Promise<App> {
  const row = await store.findAppBySlug(ctx.db, slug);
  if (!row || !await managesOwner(ctx, actor, row.owner_id)) throw new NotFoundError();
  return toApp(row);
}

export async function listManagedApps(ctx: AppContext, actor: Actor): Promise<PresentedApp[]> {
  const user = requireUser(actor);
  const { items } = await orgs.listMembershipsForAuthenticatedUser(ctx, actor, 'active', { perPage: 100, offset: 0 });
  const ownerIds = [user.id, ...items.filter((m) => orgs.isOwnerMembership(m.membership)).map((m) => m.org.account.id)];
  return presentApps(ctx, (await store.listAppsOfOwners(ctx.db, ownerIds)).map(toApp));
}

export async function listKeys(ctx: AppContext, actor: Actor, slug: string): Promise<AppKey[]> {
  const app = await requireManagedApp(ctx, actor, slug);
  return (await store.listKeys(ctx.db, app.id)).map(toKey);
}

export async function generateKey(ctx: AppContext, actor: Actor, slug: string): Promise<{ app: App; key: AppKey; pem: string }> {
  const app = await requireManagedApp(ctx, actor, slug);
  return { app, ...await addKey(ctx, app.id) };
}

/** Revokes a key: JSON web tokens it signed stop working at once. */
export async function revokeKey(ctx: AppContext, actor: Actor, slug: string, keyId: number): Promise<void> {
  const app = await requireManagedApp(ctx, actor, slug);
  if (!Number.isSafeInteger(keyId) || !await store.deleteKey(ctx.db, app.id, keyId)) throw new NotFoundError();
}
