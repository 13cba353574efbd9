// What the apps module tells the webhook side: which installations reach a repository
// and which events each may receive (apps.wiring.ts provides it as `appInstallationsOf`),
// the installation events an app's hook is sent, and the app's hook kept in step
// with its settings.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { encodeNodeId } from '../../domain/node-id.ts';
import { recordEvent } from '../../events/outbox.ts';
import { appHook, syncAppHook, type AppHookSettings, type AppReach } from '../hooks/hooks.apps.ts';
import * as repos from '../repos/repos.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import { receivableEvents } from './app-events.ts';
import type { App, Installation } from './apps.model.ts';
import * as store from './installations.store.ts';
import type { Permissions } from './app-permissions.ts';

export async function installationsReaching(ctx: AppContext, repositoryIds: readonly number[]): Promise<AppReach[]> {
  const list = await repos.reposByIds(ctx, repositoryIds);
  const installations = await store.liveInstallationsOnAccounts(ctx.db, [...new Set(list.map((r) => r.ownerId))]);
  if (installations.length === 0) return [];
  const selected = await store.selectionsAmong(ctx.db, installations.filter((i) => i.repository_selection === 'selected').map((i) => i.id), repositoryIds);
  const picked = new Set(selected.map((s) => `${s.installation_id}:${s.repository_id}`));
  const out: AppReach[] = [];
  for (const repo of list) {
    for (const i of installations) {
      if (i.account_id !== repo.ownerId) continue;
      if (i.repository_selection === 'selected' && !picked.has(`${i.id}:${repo.id}`)) continue;
      const events = receivableEvents(JSON.parse(i.events) as string[], JSON.parse(i.permissions) as Permissions);
      out.push({ repositoryId: repo.id, appId: i.app_id, installationId: i.id, events });
    }
  }
  return out;
}

/** The app's hook from its settings (the secret only when it changes). */
export async function syncHookOf(ctx: AppContext, app: App, secret?: string | null): Promise<void> {
  const settings: AppHookSettings = {
    url: app.webhookUrl, contentType: app.webhookContentType, insecureSsl: app.webhookInsecureSsl === '1' ? '1' : '0',
    active: app.webhookActive, events: app.events, ...(secret !== undefined ? { secret } : {}),
  };
  await syncAppHook(ctx, app.id, settings);
}

/** A repository as installation events list it. */
function repositoryEntry(r: Repo) {
  return { id: r.id, node_id: encodeNodeId('Repository', r.id), name: r.name, full_name: `${r.owner.login}/${r.name}`, private: r.visibility !== 'public' };
}

/**
 * Records an `installation` or `installation_repositories` event for the app's hook
 * alone (hook_id addresses it), in the caller's transaction; nothing when the app has
 * no webhook. `installation` is the installation record as the API shows it.
 */
export async function recordInstallationEvent(
  ctx: AppContext, actor: Actor, app: App, event: 'installation' | 'installation_repositories', action: string,
  installation: Record<string, unknown>, fields: { repositories?: Repo[]; added?: Repo[]; removed?: Repo[]; selection?: Installation['repositorySelection'] },
): Promise<void> {
  const hook = await appHook(ctx, app.id);
  if (!hook) return;
  const payload: Record<string, unknown> = { installation, hook_id: hook.id };
  if (event === 'installation') {
    if (fields.repositories) payload.repositories = fields.repositories.map(repositoryEntry);
    payload.requester = null;
  } else {
    payload.repository_selection = fields.selection;
    payload.repositories_added = (fields.added ?? []).map(repositoryEntry);
    payload.repositories_removed = (fields.removed ?? []).map(repositoryEntry);
    payload.requester = null;
  }
  // The sender: the user who acted, or the app's bot when the app acted with its JWT.
  const actorId = actor.user?.id ?? app.botUserId;
  await recordEvent(ctx, { event, action, actorId, payload });
}
