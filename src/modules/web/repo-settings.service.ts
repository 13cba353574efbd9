// The repository settings pages' data and writes: collaborators and invitations (Access)
// and webhooks with their deliveries (Webhooks), through the services the REST API uses,
// with the viewer as actor, so the same rules refuse the same things. The pages are only
// for the repository's admins: anyone else gets a 404, as upstream.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import { isStoredId } from '../../domain/ids.ts';
import * as collaborators from '../collaborators/collaborators.service.ts';
import type { CollaboratorEntry } from '../collaborators/collaborators.model.ts';
import * as deliveries from '../hooks/deliveries.service.ts';
import * as hooks from '../hooks/hooks.service.ts';
import type { Delivery, Hook } from '../hooks/hooks.model.ts';
import { roleAtLeast, type Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import * as users from '../users/users.service.ts';

/** The permissions the invite form offers (the API's legacy names, which it takes as they are). */
export const PERMISSIONS = ['pull', 'triage', 'push', 'maintain', 'admin'] as const;

/** Enough of the collaborators and invitations to show on one page. */
const LIST_LIMIT = 100;

/** The repository, for a signed-in admin of it; a 404 to anyone else. */
export async function adminRepo(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<Repo> {
  const { repo, access } = await repos.locate(ctx, actor, owner, name);
  if (!actor.user || !roleAtLeast(access.effective, 'admin')) throw new NotFoundError();
  return repo;
}

/** Whether the viewer administers the repository (the Settings tab). */
export async function isAdmin(ctx: AppContext, actor: Actor, repo: Repo): Promise<boolean> {
  if (!actor.user) return false;
  const { access } = await repos.locate(ctx, actor, repo.owner.login, repo.name);
  return roleAtLeast(access.effective, 'admin');
}

/** The id of owner/name when the viewer administers it, else null (the Settings tab of any repository page). */
export async function adminRepoId(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<number | null> {
  if (!actor.user) return null;
  const { repo, access } = await repos.locate(ctx, actor, owner, name);
  return roleAtLeast(access.effective, 'admin') ? repo.id : null;
}

export interface AccessView {
  repo: Repo;
  collaborators: CollaboratorEntry[];
  invitations: collaborators.InvitationDetail[];
}

export async function accessOf(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<AccessView> {
  const repo = await adminRepo(ctx, actor, owner, name);
  const slice = { perPage: LIST_LIMIT, offset: 0 };
  const [list, invitations] = await Promise.all([
    collaborators.listCollaborators(ctx, actor, repo.owner.login, repo.name, { affiliation: 'all' }, slice),
    collaborators.listInvitations(ctx, actor, repo.owner.login, repo.name, slice),
  ]);
  return { repo, collaborators: list.items, invitations: invitations.items };
}

/** A login typed into the form that names nobody: a field error, not a missing page. */
async function requireInvitee(ctx: AppContext, login: string): Promise<void> {
  if (!login || !(await users.findAccount(ctx, login))) {
    throw new ValidationError([{ resource: 'Repository', field: 'collaborator', code: 'invalid', value: login, message: login ? `No user is called ${login}.` : 'Type the login of the user to invite.' }]);
  }
}

/** Invite a user (or change a collaborator's permission): PUT …/collaborators/{username}. */
export async function setCollaborator(
  ctx: AppContext, actor: Actor, owner: string, name: string, login: string, permission: string,
): Promise<collaborators.AddOutcome> {
  const repo = await adminRepo(ctx, actor, owner, name);
  await requireInvitee(ctx, login);
  return collaborators.addCollaborator(ctx, actor, repo.owner.login, repo.name, login, permission);
}

/** DELETE …/collaborators/{username}. */
export async function removeCollaborator(ctx: AppContext, actor: Actor, owner: string, name: string, login: string): Promise<void> {
  const repo = await adminRepo(ctx, actor, owner, name);
  await requireInvitee(ctx, login);
  await collaborators.removeCollaborator(ctx, actor, repo.owner.login, repo.name, login);
}

/** What PATCH …/invitations/{id} takes as `permissions`. */
export const INVITATION_PERMISSIONS = ['read', 'triage', 'write', 'maintain', 'admin'] as const;

function invitationPermission(raw: string): collaborators.InvitationPermission {
  const found = INVITATION_PERMISSIONS.find((p) => p === raw);
  // The API's schema refuses any other value with a 422 before the service sees it.
  if (!found) throw new ValidationError([{ resource: 'RepositoryInvitation', field: 'permissions', code: 'invalid', value: raw, message: `${raw || 'An empty permission'} is not one of ${INVITATION_PERMISSIONS.join(', ')}.` }]);
  return found;
}

/** PATCH …/invitations/{id}: a pending invitation's permission. */
export async function changeInvitation(ctx: AppContext, actor: Actor, owner: string, name: string, id: number, permission: string): Promise<void> {
  const repo = await adminRepo(ctx, actor, owner, name);
  await collaborators.updateInvitation(ctx, actor, repo.owner.login, repo.name, id, invitationPermission(permission));
}

/** DELETE …/invitations/{id}: cancels a pending invitation. */
export async function cancelInvitation(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<void> {
  const repo = await adminRepo(ctx, actor, owner, name);
  await collaborators.deleteInvitation(ctx, actor, repo.owner.login, repo.name, id);
}

// ---------------------------------------------------------------- webhooks

/** A stored id from the address (a hook, delivery or invitation); anything else is a 404. */
export function hookId(raw: string): number {
  if (!/^\d{1,15}$/.test(raw) || !isStoredId(Number(raw))) throw new NotFoundError();
  return Number(raw);
}

export async function hooksOf(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<{ repo: Repo; hooks: Hook[] }> {
  const repo = await adminRepo(ctx, actor, owner, name);
  const page = await hooks.listRepositoryHooks(ctx, actor, repo.owner.login, repo.name, { perPage: LIST_LIMIT, offset: 0 });
  return { repo, hooks: page.items.map((d) => d.hook) };
}

/** How many deliveries a hook's page lists (newest first). */
const DELIVERY_LIMIT = 30;

export interface HookView { repo: Repo; hook: Hook; deliveries: Delivery[] }

export async function hookOf(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<HookView> {
  const repo = await adminRepo(ctx, actor, owner, name);
  const { hook } = await hooks.getRepositoryHook(ctx, actor, repo.owner.login, repo.name, id);
  const list = await deliveries.listRepositoryHookDeliveries(ctx, actor, repo.owner.login, repo.name, id, { perPage: DELIVERY_LIMIT });
  return { repo, hook, deliveries: list.items };
}

/** A hook form as typed. */
export interface HookFields {
  url: string;
  contentType: string;
  /** '' leaves the stored secret as it is on an edit; on a new hook, none. */
  secret: string;
  /** Event names, comma or space separated; '*' for every event. */
  events: string;
  active: boolean;
}

function eventsOf(raw: string): string[] {
  return raw.split(/[\s,]+/).filter((e) => e !== '');
}

function config(f: HookFields, secret: string | undefined): hooks.ConfigInput {
  return { url: f.url.trim(), content_type: f.contentType, ...(secret !== undefined ? { secret } : {}) };
}

export async function createHook(ctx: AppContext, actor: Actor, owner: string, name: string, f: HookFields): Promise<Hook> {
  const repo = await adminRepo(ctx, actor, owner, name);
  const made = await hooks.createRepositoryHook(ctx, actor, repo.owner.login, repo.name, {
    name: 'web', config: config(f, f.secret === '' ? undefined : f.secret), events: eventsOf(f.events), active: f.active,
  });
  return made.hook;
}

/**
 * Edits a hook. The API replaces the whole config (one sent without a secret removes
 * it), and the form never shows the secret back: so the config is sent only when the
 * URL, content type or secret changed, and changing the URL or content type of a hook
 * that has a secret needs the secret typed again rather than dropping it silently.
 */
export async function updateHook(ctx: AppContext, actor: Actor, owner: string, name: string, id: number, f: HookFields): Promise<Hook> {
  const repo = await adminRepo(ctx, actor, owner, name);
  const { hook } = await hooks.getRepositoryHook(ctx, actor, repo.owner.login, repo.name, id);
  const configChanged = f.url.trim() !== hook.config.url || f.contentType !== hook.config.contentType || f.secret !== '';
  if (configChanged && f.secret === '' && hook.config.hasSecret) {
    throw new ValidationError([{ resource: 'Hook', field: 'secret', code: 'missing_field', message: 'Type the secret again to change the URL or content type of a hook that has one.' }]);
  }
  const updated = await hooks.updateRepositoryHook(ctx, actor, repo.owner.login, repo.name, id, {
    ...(configChanged ? { config: config(f, f.secret === '' ? undefined : f.secret) } : {}),
    events: eventsOf(f.events), active: f.active,
  });
  return updated.hook;
}

export async function deleteHook(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<void> {
  const repo = await adminRepo(ctx, actor, owner, name);
  await hooks.deleteRepositoryHook(ctx, actor, repo.owner.login, repo.name, id);
}

/** POST …/hooks/{id}/deliveries/{delivery_id}/attempts. */
export async function redeliver(ctx: AppContext, actor: Actor, owner: string, name: string, id: number, deliveryId: number): Promise<void> {
  const repo = await adminRepo(ctx, actor, owner, name);
  await deliveries.redeliverRepositoryHookDelivery(ctx, actor, repo.owner.login, repo.name, id, deliveryId);
}
