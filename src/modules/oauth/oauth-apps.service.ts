// Registering and managing OAuth apps: a user's own, an organization's (its owners
// manage them), and every app for site admins.
import type { AppContext } from '../../context.ts';
import { isSiteAdmin, requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { ForbiddenError, NotFoundError, ValidationError, type FieldError } from '../../domain/errors.ts';
import type { Slice } from '../../domain/page.ts';
import * as auth from '../auth/auth.service.ts';
import * as orgs from '../orgs/orgs.service.ts';
import * as users from '../users/users.service.ts';
import type { OauthApp, OauthAppWithSecret, OwnedOauthApp } from './oauth.model.ts';
import { isStoredId } from '../../domain/ids.ts';

const RESOURCE = 'OauthApplication';
export const MAX_NAME = 100;
export const MAX_DESCRIPTION = 400;
const MAX_URL = 2048;

interface StoredApp {
  id: number; owner_id: number; name: string; url: string | null; callback_url: string | null;
  description: string | null; client_id: string; created_at: string; updated_at: string;
}

export function toOauthApp(row: StoredApp): OauthApp {
  return {
    id: row.id, ownerId: row.owner_id, name: row.name, url: row.url, callbackUrl: row.callback_url,
    description: row.description, clientId: row.client_id, createdAt: row.created_at, updatedAt: row.updated_at,
  };
}

export interface AppInput {
  /** Login of the owning organization; omitted: the signed-in user. */
  owner?: string;
  name: string;
  url: string;
  callbackUrl: string;
  description: string;
}

function urlProblem(raw: string): string | null {
  if (raw.length > MAX_URL) return 'is too long';
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be an http or https URL';
  if (parsed.hash) return 'must not have a fragment';
  return null;
}

/** Every problem of the form at once, so the page can show them together. */
function validate(input: AppInput): { name: string; url: string; callbackUrl: string; description: string | null } {
  const errors: FieldError[] = [];
  const name = input.name.trim();
  const url = input.url.trim();
  const callbackUrl = input.callbackUrl.trim();
  const description = input.description.trim();
  if (!name) errors.push({ resource: RESOURCE, field: 'name', code: 'missing_field', message: 'Application name can\'t be blank' });
  else if (name.length > MAX_NAME) errors.push({ resource: RESOURCE, field: 'name', code: 'invalid', message: `Application name is too long (maximum is ${MAX_NAME} characters)` });
  for (const [field, label, value] of [['url', 'Homepage URL', url], ['callback_url', 'Authorization callback URL', callbackUrl]] as const) {
    if (!value) { errors.push({ resource: RESOURCE, field, code: 'missing_field', message: `${label} can't be blank` }); continue; }
    const problem = urlProblem(value);
    if (problem) errors.push({ resource: RESOURCE, field, code: 'invalid', message: `${label} ${problem}` });
  }
  if (description.length > MAX_DESCRIPTION) errors.push({ resource: RESOURCE, field: 'description', code: 'invalid', message: `Description is too long (maximum is ${MAX_DESCRIPTION} characters)` });
  if (errors.length) throw new ValidationError(errors);
  return { name, url, callbackUrl, description: description || null };
}

/** Whether the actor may manage apps owned by `ownerId`: its own, or an organization's it owns. */
async function managesOwner(ctx: AppContext, actor: Actor, ownerId: number): Promise<boolean> {
  const user = requireUser(actor);
  if (ownerId === user.id) return true;
  const org = (await orgs.organizationsByIds(ctx, [ownerId])).get(ownerId);
  return org !== undefined && await orgs.ownsOrganization(ctx, actor, org);
}

/** The app if the actor manages it; 404 otherwise (another's app is not even confirmed to exist). */
export async function requireManagedApp(ctx: AppContext, actor: Actor, id: number): Promise<OauthApp> {
  const row = isStoredId(id) ? await auth.findOauthAppById(ctx, id) : null;
  if (!row || !await managesOwner(ctx, actor, row.owner_id)) throw new NotFoundError();
  return toOauthApp(row);
}

/** The accounts the actor may register apps for: itself first, then the organizations it owns. */
export async function ownersFor(ctx: AppContext, actor: Actor): Promise<{ id: number; login: string }[]> {
  const user = requireUser(actor);
  const { items } = await orgs.listMembershipsForAuthenticatedUser(ctx, actor, 'active', { perPage: 100, offset: 0 });
  return [
    { id: user.id, login: user.login },
    ...items.filter((m) => orgs.isOwnerMembership(m.membership)).map((m) => ({ id: m.org.account.id, login: m.org.account.login })),
  ];
}

/** requireManagedApp with the owning account, for the app's page. */
export async function getManagedApp(ctx: AppContext, actor: Actor, id: number): Promise<OwnedOauthApp> {
  const app = await requireManagedApp(ctx, actor, id);
  const owner = (await users.accountsByIds(ctx, [app.ownerId])).get(app.ownerId) ?? null;
  return { app, owner };
}

export async function listManagedApps(ctx: AppContext, actor: Actor): Promise<OwnedOauthApp[]> {
  const owners = await ownersFor(ctx, actor);
  const accounts = await users.accountsByIds(ctx, owners.map((o) => o.id));
  const lists = await Promise.all(owners.map((o) => auth.listOauthAppsOfOwner(ctx, o.id)));
  return lists.flat().map((row) => ({ app: toOauthApp(row), owner: accounts.get(row.owner_id) ?? null }));
}

export async function createApp(ctx: AppContext, actor: Actor, input: AppInput): Promise<OauthAppWithSecret> {
  const fields = validate(input);
  const owners = await ownersFor(ctx, actor);
  const owner = input.owner ? owners.find((o) => o.login.toLowerCase() === input.owner!.toLowerCase()) : owners[0];
  if (!owner) throw new ValidationError([{ resource: RESOURCE, field: 'owner', code: 'invalid', message: 'You can register apps for yourself and for organizations you own only' }]);
  const { app, clientSecret } = await auth.registerOauthApp(ctx, owner.id, fields.name, fields.url, fields.callbackUrl, fields.description);
  return { app: toOauthApp(app), clientSecret };
}

export async function updateApp(ctx: AppContext, actor: Actor, id: number, input: AppInput): Promise<OauthApp> {
  await requireManagedApp(ctx, actor, id);
  const fields = validate(input);
  return toOauthApp(await auth.updateOauthApp(ctx, id, fields));
}

/** A new client secret, shown this once; the old one stops working at once. */
export async function regenerateSecret(ctx: AppContext, actor: Actor, id: number): Promise<OauthAppWithSecret> {
  await requireManagedApp(ctx, actor, id);
  const { app, clientSecret } = await auth.resetOauthAppSecret(ctx, id);
  return { app: toOauthApp(app), clientSecret };
}

/** Deletes the app with every token, grant and code it holds. */
export async function deleteApp(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  await requireManagedApp(ctx, actor, id);
  await auth.deleteOauthApp(ctx, id);
}

function requireSiteAdmin(actor: Actor): void {
  requireUser(actor);
  if (!isSiteAdmin(actor)) throw new ForbiddenError('Must be a site administrator.');
  requireScope(actor, 'site_admin');
}

/** Every app of the instance, by id, for site admins (GET /admin/oauth-apps). */
export async function listAllApps(ctx: AppContext, actor: Actor, since: number, slice: Slice): Promise<OwnedOauthApp[]> {
  requireSiteAdmin(actor);
  const rows = await auth.listOauthApps(ctx, since, slice.perPage);
  const accounts = await users.accountsByIds(ctx, [...new Set(rows.map((r) => r.owner_id))]);
  return rows.map((row) => ({ app: toOauthApp(row), owner: accounts.get(row.owner_id) ?? null }));
}

export async function adminDeleteApp(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  requireSiteAdmin(actor);
  if (!isStoredId(id) || !await auth.deleteOauthApp(ctx, id)) throw new NotFoundError();
}
