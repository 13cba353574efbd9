// Webhooks of repositories (for their admins) and of organizations (for their owners):
// configuration, ping and test requests. Deliveries are the events side's work: ping
// and test only record the event to deliver, in the outbox.
//
// Upstream rules kept here: `config.url` must be an http(s) URL; events default to
// push and "*" means every event; two hooks of one target may share a URL only when
// their events do not overlap; a PATCH that sends `config` without `secret` removes the
// stored secret (the spec says so), and omitted config fields take their defaults again,
// as the whole config is replaced. A URL whose host is a loopback, private, link-local
// or metadata address (unless WHARF_WEBHOOK_ALLOWED_HOSTS allows it) is refused when
// saved, as upstream refuses URLs it cannot reach; a host name is judged at each
// delivery instead, since what it resolves to can change.
import { inTransaction, type AppContext } from '../../context.ts';
import { hasScope, requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { NotFoundError, ValidationError, type FieldError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import { latestEvent, recordEvent } from '../../events/outbox.ts';
import { PRINCIPLES } from '../meta/zen.ts';
import * as orgs from '../orgs/orgs.service.ts';
import * as repos from '../repos/repos.service.ts';
import { CONTENT_TYPES, eventsOverlap, subscribesTo, type ContentType, type Hook, type HookScope } from './hooks.model.ts';
import { addressGuardOf, type AddressGuard } from './hooks.address-guard.ts';
import { sealSecret } from './hooks.secrets.ts';
import * as store from './hooks.store.ts';
import { hook as hookView } from './hooks.views.ts';
import { TEXT_LIMITS } from '../../domain/text-limits.ts';

/** Scopes each kind of operation accepts (a parent scope grants its children). */
export const SCOPES = {
  repositoryRead: ['read:repo_hook', 'repo'],
  repositoryWrite: ['write:repo_hook', 'repo'],
  organization: ['admin:org_hook'],
} as const satisfies Record<string, readonly string[]>;

const RESOURCE = 'Hook';
const EVENT_NAME = /^[a-z][a-z0-9_]*$/;

/** Where a hook lives, as its URLs need it. */
export type HookOwner =
  | { type: 'Repository'; owner: string; name: string; targetId: number }
  | { type: 'Organization'; login: string; targetId: number }
  /** A GitHub App's own hook (targetId: the app's id). */
  | { type: 'App'; targetId: number };

export interface HookDetail {
  hook: Hook;
  owner: HookOwner;
}

export interface ConfigInput {
  url?: unknown;
  content_type?: unknown;
  secret?: unknown;
  insecure_ssl?: unknown;
}

export interface CreateHookInput {
  name?: unknown;
  config?: ConfigInput;
  events?: unknown[];
  active?: boolean;
}

export interface UpdateHookInput {
  name?: unknown;
  config?: ConfigInput;
  events?: unknown[];
  add_events?: unknown[];
  remove_events?: unknown[];
  active?: boolean;
}

// ---------------------------------------------------------------- rules

function invalid(field: string, message: string, value?: unknown): FieldError {
  return { resource: RESOURCE, field, code: 'invalid', message, ...(value === undefined ? {} : { value }) };
}

interface ValidConfig {
  url: string;
  contentType: ContentType;
  insecureSsl: '0' | '1';
  secret: string | null;
}

function validateConfig(config: ConfigInput | undefined, errors: FieldError[], guard: AddressGuard): ValidConfig | null {
  if (!config || config.url === undefined || config.url === null || config.url === '') {
    errors.push({ resource: RESOURCE, field: 'url', code: 'custom', message: 'Config must have a URL' });
    return null;
  }
  const { url, content_type: contentType = 'json', insecure_ssl: insecure = '0', secret } = config;
  let ok = true;
  if (typeof url === 'string' && url.length > TEXT_LIMITS.longUrl) {
    errors.push({ resource: RESOURCE, field: 'url', code: 'invalid', message: `url is too long (maximum is ${TEXT_LIMITS.longUrl} characters)` });
    ok = false;
  } else if (!isHttpUrl(url)) {
    errors.push({ resource: RESOURCE, field: 'url', code: 'custom', message: 'url is not supported because it isn\'t http or https' });
    ok = false;
  } else {
    const refused = guard.refusesLiteral(new URL(url as string));
    if (refused) {
      errors.push({ resource: RESOURCE, field: 'url', code: 'custom', message: `url is not supported because it ${refused}` });
      ok = false;
    }
  }
  if (!CONTENT_TYPES.includes(contentType as ContentType)) {
    errors.push(invalid('content_type', `content_type must be one of: ${CONTENT_TYPES.join(', ')}`, contentType));
    ok = false;
  }
  // Upstream takes the string or the number.
  const ssl = insecure === 0 || insecure === '0' ? '0' : insecure === 1 || insecure === '1' ? '1' : null;
  if (ssl === null) {
    errors.push(invalid('insecure_ssl', 'insecure_ssl must be "0" or "1"', insecure));
    ok = false;
  }
  if (secret !== undefined && secret !== null && typeof secret !== 'string') {
    errors.push(invalid('secret', 'secret must be a string'));
    ok = false;
  } else if (typeof secret === 'string' && secret.length > TEXT_LIMITS.hookSecret) {
    errors.push({ resource: RESOURCE, field: 'secret', code: 'invalid', message: `secret is too long (maximum is ${TEXT_LIMITS.hookSecret} characters)` });
    ok = false;
  }
  if (!ok) return null;
  return {
    url: url as string, contentType: contentType as ContentType, insecureSsl: ssl!,
    secret: typeof secret === 'string' && secret !== '' ? secret : null,
  };
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/** Event names, deduplicated in order; "*" alone stands for every event. */
function validateEvents(field: string, events: unknown[] | undefined, errors: FieldError[]): string[] | null {
  if (events === undefined) return null;
  const out: string[] = [];
  for (const e of events) {
    if (typeof e !== 'string' || (e !== '*' && !EVENT_NAME.test(e))) {
      errors.push(invalid(field, `${field} contains an invalid event name`, e));
      return null;
    }
    if (!out.includes(e)) out.push(e);
  }
  return out.includes('*') ? ['*'] : out;
}

function validateName(name: unknown, errors: FieldError[]): void {
  if (name !== undefined && name !== 'web') errors.push(invalid('name', 'name must be "web"', name));
}

async function refuseDuplicate(ctx: AppContext, target: store.Target, url: string, events: string[], self: number | null): Promise<void> {
  const same = await store.findByUrl(ctx.db, target, url);
  if (same.some((h) => h.id !== self && eventsOverlap(h.events, events))) {
    const on = target.scope === 'repository' ? 'repository' : 'organization';
    throw new ValidationError([{ resource: RESOURCE, field: 'url', code: 'custom', message: `Hook already exists on this ${on}` }]);
  }
}

// ---------------------------------------------------------------- targets

/**
 * The repository, for a caller with admin rights on it. A token holding a repo_hook
 * scope may manage hooks without `repo` (upstream's reason for those scopes).
 */
export async function repositoryTarget(ctx: AppContext, actor: Actor, owner: string, name: string, write: boolean): Promise<HookOwner> {
  requireUser(actor);
  // The scope check says nothing about the repository, so it may come before the lookup.
  requireScope(actor, ...(write ? SCOPES.repositoryWrite : SCOPES.repositoryRead));
  const viewer = hasScope(actor, 'read:repo_hook') ? { ...actor, scopes: new Set([...actor.scopes, 'repo']) } : actor;
  const { repo } = await repos.locate(ctx, viewer, owner, name, 'admin');
  return { type: 'Repository', owner: repo.owner.login, name: repo.name, targetId: repo.id };
}

export async function organizationTarget(ctx: AppContext, actor: Actor, login: string): Promise<HookOwner> {
  requireUser(actor);
  requireScope(actor, ...SCOPES.organization);
  const org = await orgs.requireOrganization(ctx, login);
  await orgs.requireOrgOwner(ctx, actor, org);
  return { type: 'Organization', login: org.account.login, targetId: org.account.id };
}

function targetOf(owner: HookOwner): store.Target {
  const scope: HookScope = owner.type === 'Repository' ? 'repository' : owner.type === 'App' ? 'app' : 'organization';
  return { scope, targetId: owner.targetId };
}

export async function requireHook(ctx: AppContext, owner: HookOwner, id: number): Promise<Hook> {
  const hook = await store.findById(ctx.db, targetOf(owner), id);
  if (!hook) throw new NotFoundError();
  return hook;
}

// ---------------------------------------------------------------- operations on a target

async function list(ctx: AppContext, owner: HookOwner, slice: Slice): Promise<Page<HookDetail>> {
  const target = targetOf(owner);
  const [hooks, total] = await Promise.all([store.list(ctx.db, target, slice), store.count(ctx.db, target)]);
  return { items: hooks.map((hook) => ({ hook, owner })), total };
}

async function create(ctx: AppContext, actor: Actor, owner: HookOwner, input: CreateHookInput): Promise<HookDetail> {
  const errors: FieldError[] = [];
  validateName(input.name, errors);
  const config = validateConfig(input.config, errors, addressGuardOf(ctx.config));
  const events = validateEvents('events', input.events, errors) ?? ['push'];
  if (errors.length || !config) throw new ValidationError(errors);
  const target = targetOf(owner);
  return inTransaction(ctx, async (tx) => {
    await refuseDuplicate(tx, target, config.url, events, null);
    const id = await store.insert(tx.db, target, {
      name: 'web', active: input.active ?? true, events, url: config.url, contentType: config.contentType,
      insecureSsl: config.insecureSsl, secret: sealSecret(tx, config.secret),
    }, nowIso(tx.clock));
    const detail = { hook: await requireHook(tx, owner, id), owner };
    // Upstream greets a new hook with a ping.
    if (detail.hook.active) await recordPing(tx, actor, detail);
    return detail;
  });
}

async function update(ctx: AppContext, owner: HookOwner, id: number, input: UpdateHookInput): Promise<HookDetail> {
  const errors: FieldError[] = [];
  validateName(input.name, errors);
  const config = input.config === undefined ? undefined : validateConfig(input.config, errors, addressGuardOf(ctx.config));
  const events = validateEvents('events', input.events, errors);
  const added = validateEvents('add_events', input.add_events, errors) ?? [];
  const removed = validateEvents('remove_events', input.remove_events, errors) ?? [];
  if (errors.length || config === null) throw new ValidationError(errors);
  return inTransaction(ctx, async (tx) => {
    const hook = await requireHook(tx, owner, id);
    let next = events ?? hook.events;
    for (const e of added) if (!next.includes(e)) next = [...next, e];
    next = next.filter((e) => !removed.includes(e));
    if (next.includes('*')) next = ['*'];
    const url = config?.url ?? hook.config.url;
    await refuseDuplicate(tx, targetOf(owner), url, next, hook.id);
    await store.update(tx.db, hook.id, {
      name: hook.name,
      active: input.active ?? hook.active,
      events: next,
      url,
      contentType: config?.contentType ?? hook.config.contentType,
      insecureSsl: config?.insecureSsl ?? hook.config.insecureSsl,
      // Sending config without a secret removes the stored one (spec).
      ...(config ? { secret: sealSecret(tx, config.secret) } : {}),
    }, nowIso(tx.clock));
    return { hook: await requireHook(tx, owner, id), owner };
  });
}

async function remove(ctx: AppContext, owner: HookOwner, id: number): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const hook = await requireHook(tx, owner, id);
    await store.remove(tx.db, hook.id);
  });
}

/** For the PubSubHubbub hub (hooks.hub.ts): its subscriptions are these same hooks. */
export { create as createHook, update as updateHook, remove as removeHook };

function eventTarget(owner: HookOwner): { repositoryId: number | null; organizationId: number | null } {
  if (owner.type === 'App') return { repositoryId: null, organizationId: null };
  return owner.type === 'Repository'
    ? { repositoryId: owner.targetId, organizationId: null }
    : { repositoryId: null, organizationId: owner.targetId };
}

/** A ping for one hook: hook_id addresses the event to it alone (see the delivery worker). */
async function recordPing(ctx: AppContext, actor: Actor, detail: HookDetail): Promise<void> {
  await recordEvent(ctx, {
    event: 'ping', ...eventTarget(detail.owner), actorId: actor.user?.id ?? null,
    payload: {
      zen: PRINCIPLES[Math.floor(Math.random() * PRINCIPLES.length)],
      hook_id: detail.hook.id,
      hook: hookView(detail, ctx.urls),
    },
  });
}

async function ping(ctx: AppContext, actor: Actor, owner: HookOwner, id: number): Promise<void> {
  await recordPing(ctx, actor, { hook: await requireHook(ctx, owner, id), owner });
}

// ---------------------------------------------------------------- repositories

export async function listRepositoryHooks(ctx: AppContext, actor: Actor, owner: string, name: string, slice: Slice): Promise<Page<HookDetail>> {
  return list(ctx, await repositoryTarget(ctx, actor, owner, name, false), slice);
}

export async function getRepositoryHook(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<HookDetail> {
  const where = await repositoryTarget(ctx, actor, owner, name, false);
  return { hook: await requireHook(ctx, where, id), owner: where };
}

export async function createRepositoryHook(ctx: AppContext, actor: Actor, owner: string, name: string, input: CreateHookInput): Promise<HookDetail> {
  return create(ctx, actor, await repositoryTarget(ctx, actor, owner, name, true), input);
}

export async function updateRepositoryHook(
  ctx: AppContext, actor: Actor, owner: string, name: string, id: number, input: UpdateHookInput,
): Promise<HookDetail> {
  return update(ctx, await repositoryTarget(ctx, actor, owner, name, true), id, input);
}

export async function deleteRepositoryHook(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<void> {
  await remove(ctx, await repositoryTarget(ctx, actor, owner, name, true), id);
}

export async function pingRepositoryHook(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<void> {
  await ping(ctx, actor, await repositoryTarget(ctx, actor, owner, name, true), id);
}

/**
 * Asks for the latest push to be delivered to the hook again. As upstream: a hook not
 * subscribed to push, or a repository never pushed to, still answers success and
 * nothing is sent.
 */
export async function testRepositoryHook(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<void> {
  const where = await repositoryTarget(ctx, actor, owner, name, true);
  const hook = await requireHook(ctx, where, id);
  if (!subscribesTo(hook, 'push')) return;
  const latest = await latestEvent(ctx, { event: 'push', repositoryId: where.targetId });
  if (!latest) return;
  // The same push again, addressed to this hook alone (hook_id; not shown in the payload).
  await recordEvent(ctx, {
    event: 'push', ...eventTarget(where), actorId: latest.actorId ?? actor.user?.id ?? null,
    payload: { ...latest.payload, hook_id: hook.id },
  });
}

// ---------------------------------------------------------------- organizations

export async function listOrganizationHooks(ctx: AppContext, actor: Actor, org: string, slice: Slice): Promise<Page<HookDetail>> {
  return list(ctx, await organizationTarget(ctx, actor, org), slice);
}

export async function getOrganizationHook(ctx: AppContext, actor: Actor, org: string, id: number): Promise<HookDetail> {
  const where = await organizationTarget(ctx, actor, org);
  return { hook: await requireHook(ctx, where, id), owner: where };
}

export async function createOrganizationHook(ctx: AppContext, actor: Actor, org: string, input: CreateHookInput): Promise<HookDetail> {
  return create(ctx, actor, await organizationTarget(ctx, actor, org), input);
}

export async function updateOrganizationHook(ctx: AppContext, actor: Actor, org: string, id: number, input: UpdateHookInput): Promise<HookDetail> {
  return update(ctx, await organizationTarget(ctx, actor, org), id, input);
}

export async function deleteOrganizationHook(ctx: AppContext, actor: Actor, org: string, id: number): Promise<void> {
  await remove(ctx, await organizationTarget(ctx, actor, org), id);
}

export async function pingOrganizationHook(ctx: AppContext, actor: Actor, org: string, id: number): Promise<void> {
  await ping(ctx, actor, await organizationTarget(ctx, actor, org), id);
}
