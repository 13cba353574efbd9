// Installations: an app installed on a user's or an organization's account, on all its
// repositories or a selection; what the app does with them through its JSON web token
// (list, look up, suspend, delete, mint access tokens) and what users see of them.
import { inTransaction, type AppContext } from '../../context.ts';
import { requireAppActor, requireUser, sessionActor, type Actor } from '../../domain/actor.ts';
import { nowIso, storedTimestamp } from '../../domain/clock.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { Slice } from '../../domain/page.ts';
import * as orgs from '../orgs/orgs.service.ts';
import * as repos from '../repos/repos.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as users from '../users/users.service.ts';
import type { Account } from '../users/users.model.ts';
import type { Permissions } from './app-permissions.ts';
import type { App, Installation } from './apps.model.ts';
import { appsByIds, managesOwner, storedWebhookSecret } from './apps.service.ts';
import { appHook } from '../hooks/hooks.apps.ts';
import * as store from './installations.store.ts';
import { recordInstallationEvent, syncHookOf } from './app-webhooks.service.ts';
import { installationRecord } from './installations.views.ts';
import { isStoredId } from '../../domain/ids.ts';

export const SUSPENDED_MESSAGE = 'This installation has been suspended';

export function toInstallation(row: store.InstallationRow): Installation {
  return {
    id: row.id, appId: row.app_id, accountId: row.account_id, repositorySelection: row.repository_selection,
    permissions: JSON.parse(row.permissions) as Permissions, events: JSON.parse(row.events) as string[],
    suspendedAt: row.suspended_at, suspendedBy: row.suspended_by, createdAt: row.created_at, updatedAt: row.updated_at,
  };
}

/** What a view of an installation needs besides the record. */
export interface PresentedInstallation {
  installation: Installation;
  app: App;
  account: Account;
  suspendedBy: Account | null;
}

export async function presentInstallations(ctx: AppContext, list: readonly Installation[]): Promise<PresentedInstallation[]> {
  const appMap = await appsByIds(ctx, [...new Set(list.map((i) => i.appId))]);
  const accountIds = list.flatMap((i) => (i.suspendedBy === null ? [i.accountId] : [i.accountId, i.suspendedBy]));
  const accounts = await users.accountsByIds(ctx, [...new Set(accountIds)]);
  return list.map((installation) => ({
    installation, app: appMap.get(installation.appId)!, account: accounts.get(installation.accountId)!,
    suspendedBy: installation.suspendedBy === null ? null : accounts.get(installation.suspendedBy) ?? null,
  }));
}

async function presentOne(ctx: AppContext, installation: Installation): Promise<PresentedInstallation> {
  return (await presentInstallations(ctx, [installation]))[0]!;
}

export async function findInstallation(ctx: AppContext, id: number): Promise<Installation | null> {
  const row = isStoredId(id) ? await store.findInstallation(ctx.db, id) : undefined;
  return row ? toInstallation(row) : null;
}

/** The repository ids an installation reaches: every one of the account's, or the selection. */
export async function repositoryIdsOf(ctx: AppContext, installation: Installation): Promise<number[]> {
  return installation.repositorySelection === 'all'
    ? repos.repositoryIdsOwnedBy(ctx, installation.accountId)
    : store.selectedRepositoryIds(ctx.db, installation.id);
}

// ---------------------------------------------------------------- installing (the page)

/** The accounts the actor may install apps on: itself, then the organizations it owns. */
export async function installTargets(ctx: AppContext, actor: Actor): Promise<Account[]> {
  const user = requireUser(actor);
  const own = await users.requireAccount(ctx, user.login);
  // Memberships are read as the user (a session), whatever the token's scopes: this lists
  // where the user may install, it does not reveal the memberships.
  const { items } = await orgs.listMembershipsForAuthenticatedUser(ctx, sessionActor(user, actor.ip), 'active', { perPage: 100, offset: 0 });
  return [own, ...items.filter((m) => orgs.isOwnerMembership(m.membership)).map((m) => m.org.account)];
}

/** The app as the installing user may see it: a public app, or a private one on its owner's accounts. */
export async function installableApp(ctx: AppContext, actor: Actor, app: App, target: Account): Promise<void> {
  if (!await managesOwner(ctx, actor, target.id)) throw new NotFoundError();
  if (!app.public && app.ownerId !== target.id) throw new NotFoundError();
}

export interface InstallInput {
  selection: 'all' | 'selected';
  repositoryIds: number[];
}

/**
 * Installs (or reconfigures) the app on `target` with the app's present permissions and
 * events, which the user accepts by installing. Selected repositories must be the account's.
 */
export async function install(ctx: AppContext, actor: Actor, app: App, target: Account, input: InstallInput): Promise<{ installation: Installation; created: boolean }> {
  await installableApp(ctx, actor, app, target);
  const owned = new Set(await repos.repositoryIdsOwnedBy(ctx, target.id));
  const selected = [...new Set(input.repositoryIds)];
  if (input.selection === 'selected') {
    if (selected.length === 0) throw ValidationError.field('Installation', 'repository_ids', 'missing_field', 'Select at least one repository');
    if (selected.some((id) => !owned.has(id))) throw ValidationError.field('Installation', 'repository_ids', 'invalid', 'Repositories must belong to the account');
  }
  const now = nowIso(ctx.clock);
  return inTransaction(ctx, async (tx) => {
    const existing = await store.findByAppAndAccount(tx.db, app.id, target.id);
    const fields = {
      repository_selection: input.selection, permissions: JSON.stringify(app.permissions), events: JSON.stringify(app.events), updated_at: now,
    };
    const before = existing ? await repositoryIdsOf(tx, toInstallation(existing)) : [];
    const row = existing
      ? (await store.updateInstallation(tx.db, existing.id, fields))!
      : await store.insertInstallation(tx.db, { app_id: app.id, account_id: target.id, created_at: now, suspended_at: null, suspended_by: null, ...fields });
    await store.replaceSelectedRepositories(tx.db, row.id, input.selection === 'selected' ? selected : []);
    const installation = toInstallation(row);
    await announceInstall(tx, actor, app, installation, existing ? { before, permissions: existing.permissions, events: existing.events } : null);
    return { installation, created: !existing };
  });
}

/**
 * The app's hook hears of the install: `created` with the repositories for a new one;
 * for a reconfigured one, `installation_repositories` when the reach changed and
 * `new_permissions_accepted` when the permissions or events did.
 */
async function announceInstall(
  ctx: AppContext, actor: Actor, app: App, installation: Installation, previous: { before: number[]; permissions: string; events: string } | null,
): Promise<void> {
  // An app registered before app hooks existed gets its hook at its next install.
  if (app.webhookUrl !== null && await appHook(ctx, app.id) === null) await syncHookOf(ctx, app, await storedWebhookSecret(ctx, app.id));
  const record = installationRecord(await presentOne(ctx, installation), ctx.urls);
  const after = await repositoryIdsOf(ctx, installation);
  if (!previous) {
    const repositories = await repos.reposByIds(ctx, after);
    await recordInstallationEvent(ctx, actor, app, 'installation', 'created', record, { repositories: repositories.sort((a, b) => a.id - b.id) });
    return;
  }
  const added = after.filter((id) => !previous.before.includes(id));
  const removed = previous.before.filter((id) => !after.includes(id));
  if (added.length || removed.length) {
    await recordInstallationEvent(ctx, actor, app, 'installation_repositories', added.length ? 'added' : 'removed', record, {
      added: await repos.reposByIds(ctx, added), removed: await repos.reposByIds(ctx, removed), selection: installation.repositorySelection,
    });
  }
  if (previous.permissions !== JSON.stringify(installation.permissions) || previous.events !== JSON.stringify(installation.events)) {
    await recordInstallationEvent(ctx, actor, app, 'installation', 'new_permissions_accepted', record, {});
  }
}

/** The repositories of `target` the install page offers for selection. */
export async function repositoriesOfAccount(ctx: AppContext, target: Account): Promise<Repo[]> {
  return repos.reposByIds(ctx, await repos.repositoryIdsOwnedBy(ctx, target.id));
}

// ---------------------------------------------------------------- the app, with its JWT

export interface InstallationListQuery {
  since?: string;
  /** `outdated`: 'false' or '0' lists the up-to-date installations; any other value the outdated ones. */
  outdated?: string;
}

export async function listForApp(ctx: AppContext, actor: Actor, q: InstallationListQuery, slice: Slice): Promise<{ items: PresentedInstallation[]; total: number }> {
  const appId = requireAppActor(actor);
  const outdated = q.outdated === undefined || q.outdated === '' ? undefined : !['false', '0'].includes(q.outdated.toLowerCase());
  const { rows, total } = await store.listInstallations(ctx.db, { appId, since: storedTimestamp(q.since), outdated }, slice.perPage, slice.offset);
  return { items: await presentInstallations(ctx, rows.map(toInstallation)), total };
}

/** One of the JWT app's installations; 404 for another app's. */
async function requireOwnInstallation(ctx: AppContext, actor: Actor, id: number): Promise<Installation> {
  const appId = requireAppActor(actor);
  const installation = await findInstallation(ctx, id);
  if (!installation || installation.appId !== appId) throw new NotFoundError();
  return installation;
}

export async function getForApp(ctx: AppContext, actor: Actor, id: number): Promise<PresentedInstallation> {
  return presentOne(ctx, await requireOwnInstallation(ctx, actor, id));
}

/** The app uninstalls itself: the installation, its selection and its tokens go. */
export async function deleteForApp(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  const installation = await requireOwnInstallation(ctx, actor, id);
  await inTransaction(ctx, async (tx) => {
    const presented = await presentOne(tx, installation);
    const repositories = await repos.reposByIds(tx, await repositoryIdsOf(tx, installation));
    await recordInstallationEvent(tx, actor, presented.app, 'installation', 'deleted', installationRecord(presented, tx.urls), { repositories });
    await store.deleteInstallation(tx.db, installation.id);
  });
}

/** Suspends (or lifts the suspension of) an installation: its tokens are refused meanwhile. */
export async function setSuspended(ctx: AppContext, actor: Actor, id: number, suspended: boolean): Promise<void> {
  const installation = await requireOwnInstallation(ctx, actor, id);
  const now = nowIso(ctx.clock);
  if (suspended && installation.suspendedAt !== null) return;
  if (!suspended && installation.suspendedAt === null) return;
  await inTransaction(ctx, async (tx) => {
    const row = await store.updateInstallation(tx.db, installation.id, suspended
      ? { suspended_at: now, suspended_by: null, updated_at: now }
      : { suspended_at: null, suspended_by: null, updated_at: now });
    if (!row) return;
    const presented = await presentOne(tx, toInstallation(row));
    const repositories = await repos.reposByIds(tx, await repositoryIdsOf(tx, presented.installation));
    await recordInstallationEvent(tx, actor, presented.app, 'installation', suspended ? 'suspend' : 'unsuspend', installationRecord(presented, tx.urls), { repositories });
  });
}

async function installationOnAccount(ctx: AppContext, actor: Actor, account: Account | null): Promise<PresentedInstallation> {
  const appId = requireAppActor(actor);
  const row = account ? await store.findByAppAndAccount(ctx.db, appId, account.id) : undefined;
  if (!row) throw new NotFoundError();
  return presentOne(ctx, toInstallation(row));
}

/** GET /users/{username}/installation and /orgs/{org}/installation. */
export async function findForAccount(ctx: AppContext, actor: Actor, login: string, type: 'User' | 'Organization'): Promise<PresentedInstallation> {
  requireAppActor(actor);
  const account = await users.findAccount(ctx, login);
  return installationOnAccount(ctx, actor, account?.type === type ? account : null);
}

/** GET /repos/{owner}/{repo}/installation: the installation that reaches the repository. */
export async function findForRepository(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<PresentedInstallation> {
  const appId = requireAppActor(actor);
  const repo = await repos.findForGit(ctx, owner, name);
  const row = repo ? await store.findByAppAndAccount(ctx.db, appId, repo.ownerId) : undefined;
  if (!repo || !row) throw new NotFoundError();
  const installation = toInstallation(row);
  if (!(await repositoryIdsOf(ctx, installation)).includes(repo.id)) throw new NotFoundError();
  return presentOne(ctx, installation);
}

// ---------------------------------------------------------------- users

/** Accounts whose installations the user may see: its own and its organizations'. */
async function visibleAccountIds(ctx: AppContext, actor: Actor): Promise<number[]> {
  const user = requireUser(actor);
  const { items } = await orgs.listMembershipsForAuthenticatedUser(ctx, sessionActor(user, actor.ip), 'active', { perPage: 100, offset: 0 });
  return [user.id, ...items.map((m) => m.org.account.id)];
}

/** A user-to-server token sees its own app's installations only, as upstream's. */
function appOfUserToken(actor: Actor): number | undefined {
  return actor.method === 'user_to_server' ? actor.integration?.appId : undefined;
}

export async function listForUser(ctx: AppContext, actor: Actor, slice: Slice): Promise<{ items: PresentedInstallation[]; total: number }> {
  const accountIds = await visibleAccountIds(ctx, actor);
  const { rows, total } = await store.listInstallations(ctx.db, { accountIds, appId: appOfUserToken(actor) }, slice.perPage, slice.offset);
  return { items: await presentInstallations(ctx, rows.map(toInstallation)), total };
}

async function requireVisibleInstallation(ctx: AppContext, actor: Actor, id: number): Promise<Installation> {
  const installation = await findInstallation(ctx, id);
  if (!installation || !(await visibleAccountIds(ctx, actor)).includes(installation.accountId)) throw new NotFoundError();
  const ownApp = appOfUserToken(actor);
  if (ownApp !== undefined && installation.appId !== ownApp) throw new NotFoundError();
  return installation;
}

/** GET /user/installations/{id}/repositories: the installation's repositories the user can read. */
export async function listRepositoriesForUser(ctx: AppContext, actor: Actor, id: number, slice: Slice): Promise<{ installation: Installation; items: repos.Presentable[]; total: number }> {
  const installation = await requireVisibleInstallation(ctx, actor, id);
  const all = await repos.reposByIds(ctx, await repositoryIdsOf(ctx, installation));
  const readable = (await repos.presentable(ctx, actor, all)).filter((p) => p.role !== null).sort((a, b) => a.repo.id - b.repo.id);
  return { installation, items: readable.slice(slice.offset, slice.offset + slice.perPage), total: readable.length };
}

/** PUT/DELETE /user/installations/{id}/repositories/{repository_id}: the account's owner edits a selection. */
export async function changeSelectedRepository(ctx: AppContext, actor: Actor, id: number, repositoryId: number, add: boolean): Promise<void> {
  const installation = await requireVisibleInstallation(ctx, actor, id);
  if (!await managesOwner(ctx, actor, installation.accountId)) throw new ForbiddenError('You must be an owner of the account to change the installation\'s repositories.');
  const [repo] = Number.isSafeInteger(repositoryId) ? await repos.reposByIds(ctx, [repositoryId]) : [];
  if (!repo || repo.ownerId !== installation.accountId) throw new NotFoundError();
  if (installation.repositorySelection === 'all') {
    throw ValidationError.field('Installation', 'repository_selection', 'custom', 'The installation has access to all repositories; select repositories first.');
  }
  const now = nowIso(ctx.clock);
  await inTransaction(ctx, async (tx) => {
    let changed = true;
    if (add) changed = await store.addSelectedRepository(tx.db, installation.id, repo.id);
    else {
      const remaining = await store.selectedRepositoryIds(tx.db, installation.id);
      if (remaining.length === 1 && remaining[0] === repo.id) {
        throw ValidationError.field('Installation', 'repository_id', 'custom', 'An installation must keep at least one selected repository.');
      }
      changed = await store.removeSelectedRepository(tx.db, installation.id, repo.id);
    }
    const row = await store.updateInstallation(tx.db, installation.id, { updated_at: now });
    // Nothing to tell the app when the selection already was so.
    if (!row || !changed) return;
    const presented = await presentOne(tx, toInstallation(row));
    await recordInstallationEvent(tx, actor, presented.app, 'installation_repositories', add ? 'added' : 'removed', installationRecord(presented, tx.urls), {
      added: add ? [repo] : [], removed: add ? [] : [repo], selection: 'selected',
    });
  });
}
