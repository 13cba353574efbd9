// GitHub Apps' webhooks as hooks of scope 'app' (target_id: the app's id): one per app,
// kept in step with the app's settings by the apps module (syncAppHook), delivered by
// the same worker as repository and organization hooks. Which installations reach a
// repository, and which events each may receive (its accepted events, as far as its
// permissions allow), is the apps module's knowledge: it provides `appInstallationsOf`.
import type { AppContext } from '../../context.ts';
import { nowIso } from '../../domain/clock.ts';
import { encodeNodeId } from '../../domain/node-id.ts';
import type { EventRef, Subscriber } from './hooks.dispatch.ts';
import { subscribesTo, type ContentType, type Hook } from './hooks.model.ts';
import { sealSecret } from './hooks.secrets.ts';
import * as store from './hooks.store.ts';

/** An installation of an app that reaches a repository. */
export interface AppReach {
  repositoryId: number;
  appId: number;
  installationId: number;
  /** The events the installation accepted and its permissions let it receive. */
  events: readonly string[];
}

declare module '../../events/bus.ts' {
  interface Providers {
    /** The apps module's: the live (not suspended) installations reaching these repositories. */
    appInstallationsOf: (ctx: AppContext, repositoryIds: readonly number[]) => Promise<AppReach[]>;
  }
}

/** For each broadcast event of a repository, the app hooks it goes to, with the installation. */
export async function appSubscribers(ctx: AppContext, refs: readonly EventRef[]): Promise<Map<number, Subscriber[]>> {
  const out = new Map<number, Subscriber[]>();
  const provider = ctx.bus.provider('appInstallationsOf');
  const repoIds = [...new Set(refs.flatMap((r) => (r.repositoryId === null ? [] : [r.repositoryId])))];
  if (!provider || repoIds.length === 0) return out;
  const reaches = await provider(ctx, repoIds);
  if (reaches.length === 0) return out;
  const hooks = new Map((await store.findActiveAppHooks(ctx.db, [...new Set(reaches.map((r) => r.appId))])).map((h) => [h.targetId, h]));
  for (const ref of refs) {
    if (ref.repositoryId === null) continue;
    for (const reach of reaches) {
      const hook = hooks.get(reach.appId);
      if (reach.repositoryId !== ref.repositoryId || !hook) continue;
      // The installation's events decide, not the hook row's (the app's present ones).
      if (!subscribesTo({ ...hook, events: [...reach.events] }, ref.event)) continue;
      const list = out.get(ref.id) ?? [];
      list.push({ hook, installationId: reach.installationId });
      out.set(ref.id, list);
    }
  }
  return out;
}

/** The payload an app's hook is sent: the event's, with the installation it is for. */
export function withInstallation(payload: string, installationId: number | null): string {
  if (installationId === null) return payload;
  const parsed = JSON.parse(payload) as Record<string, unknown>;
  return parsed.installation !== undefined ? payload : JSON.stringify(payloadWithInstallation(parsed, installationId));
}

/** The same on a parsed payload (a delivery's record shows what was sent). */
export function payloadWithInstallation(payload: Record<string, unknown>, installationId: number | null): Record<string, unknown> {
  // Installation events carry the whole installation record already.
  if (installationId === null || payload.installation !== undefined) return payload;
  return { ...payload, installation: { id: installationId, node_id: installationNodeId(installationId) } };
}

export function installationNodeId(id: number): string {
  return encodeNodeId('IntegrationInstallation', id);
}

export interface AppHookSettings {
  url: string | null;
  contentType: ContentType;
  insecureSsl: '0' | '1';
  active: boolean;
  events: readonly string[];
  /** The secret in plaintext: undefined keeps the stored one; null removes it. */
  secret?: string | null;
}

/**
 * Brings the app's hook in line with its settings, in the caller's transaction: created
 * when the app gets a webhook URL, removed (its deliveries with it) when the URL goes.
 */
export async function syncAppHook(ctx: AppContext, appId: number, s: AppHookSettings): Promise<void> {
  const existing = await appHook(ctx, appId);
  if (s.url === null) {
    if (existing) await store.remove(ctx.db, existing.id);
    return;
  }
  const values: store.HookValues = {
    name: 'web', active: s.active, events: [...s.events], url: s.url, contentType: s.contentType, insecureSsl: s.insecureSsl,
    ...(s.secret !== undefined ? { secret: sealSecret(ctx, s.secret) } : {}),
  };
  if (existing) await store.update(ctx.db, existing.id, values, nowIso(ctx.clock));
  else await store.insert(ctx.db, { scope: 'app', targetId: appId }, values, nowIso(ctx.clock));
}

/** The app's hook, or null when it has no webhook URL. */
export async function appHook(ctx: AppContext, appId: number): Promise<Hook | null> {
  const [hook] = await store.list(ctx.db, { scope: 'app', targetId: appId }, { perPage: 1, offset: 0 });
  return hook ?? null;
}
