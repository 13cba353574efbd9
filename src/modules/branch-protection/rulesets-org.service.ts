// Organization rulesets (/orgs/{org}/rulesets): rulesets an organization's owners set
// for the refs of some of its repositories, picked by name patterns or by ids. Only
// owners see or manage them (404 to everyone else, as upstream answers); the
// repositories they cover read them through …/rulesets (includes_parents) and
// …/rules/branches, and ref-rules.service applies them with the repositories' own.
// Every change is announced as a repository_ruleset webhook to the organization's hooks.
import { inTransaction, type AppContext } from '../../context.ts';
import { requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import { recordEvent } from '../../events/outbox.ts';
import * as orgs from '../orgs/orgs.service.ts';
import * as repos from '../repos/repos.service.ts';
import { canBypassWord } from './rulesets.bypass.ts';
import type { BypassMode, Enforcement, RepositoryCondition, Ruleset, Target } from './rulesets.model.ts';
import { checkRules } from './rulesets.rules.ts';
import {
  bypassActorsOf, conditionsOf, nameOf, requireUniqueName, unlessDuplicate,
  type BypassActorInput, type PresentedRuleset, type RefNameInput,
} from './rulesets.service.ts';
import * as store from './rulesets.store.ts';
import { rulesetHookView, type Place } from './rulesets.views.ts';

const RESOURCE = 'Ruleset';

/** Reading an organization's rulesets; changing them is organization administration. */
const READ_SCOPES = ['read:org', 'write:org', 'admin:org'];
const WRITE_SCOPES = ['admin:org'];

export interface OrgConditionsInput extends RefNameInput {
  repository_name?: { include?: string[]; exclude?: string[]; protected?: boolean };
  repository_id?: { repository_ids?: number[] };
  repository_property?: unknown;
}

export interface OrgRulesetInput {
  name?: string;
  target?: Target;
  enforcement?: Enforcement;
  bypass_actors?: BypassActorInput[];
  conditions?: OrgConditionsInput | null;
  rules?: unknown[];
}

interface Owned {
  orgId: number;
  userId: number;
  at: Place;
}

/** The organization, for one of its owners; NotFoundError for anyone else. */
async function requireOwned(ctx: AppContext, actor: Actor, login: string, write: boolean): Promise<Owned> {
  const user = requireUser(actor);
  requireScope(actor, ...(write ? WRITE_SCOPES : READ_SCOPES));
  const org = await orgs.requireOrganization(ctx, login);
  if (!(await orgs.ownsOrganization(ctx, actor, org))) throw new NotFoundError();
  return { orgId: org.account.id, userId: user.id, at: { owner: org.account.login, repo: null } };
}

function invalid(message: string): ValidationError {
  return ValidationError.field(RESOURCE, 'conditions', 'invalid', message);
}

/**
 * Which repositories the ruleset covers: by name patterns or by ids of the
 * organization's own repositories, exactly one of the two (as upstream's conditions).
 */
async function repositoryConditionOf(ctx: AppContext, orgId: number, target: Target, c: OrgConditionsInput | null | undefined): Promise<RepositoryCondition> {
  // A branch or tag ruleset says which refs too; a push ruleset covers every ref.
  if (target !== 'push' && !c?.ref_name) throw invalid('Invalid conditions: ref_name is required for branch and tag rulesets');
  if (c?.repository_property !== undefined) throw invalid('Invalid conditions: repository_property is not supported; use repository_name or repository_id');
  const byName = c?.repository_name;
  const byId = c?.repository_id;
  if (byName && byId) throw invalid('Invalid conditions: give repository_name or repository_id, not both');
  if (byName) {
    return { by: 'name', include: [...new Set(byName.include ?? [])], exclude: [...new Set(byName.exclude ?? [])], protected: byName.protected ?? false };
  }
  if (byId) {
    const ids = [...new Set(byId.repository_ids ?? [])];
    const found = await repos.reposByIds(ctx, ids);
    const ours = new Set(found.filter((r) => r.ownerId === orgId).map((r) => r.id));
    const stranger = ids.find((id) => !ours.has(id));
    if (stranger !== undefined) throw invalid(`Invalid conditions: repository ${stranger} is not a repository of this organization`);
    return { by: 'id', ids };
  }
  throw invalid('Invalid conditions: repository_name or repository_id is required');
}

async function announce(tx: AppContext, actorId: number, owned: Owned, rs: Ruleset, action: 'created' | 'edited' | 'deleted', changes?: Record<string, { from: unknown }>): Promise<void> {
  await recordEvent(tx, {
    event: 'repository_ruleset', action, repositoryId: null, organizationId: owned.orgId, actorId,
    payload: { repository_ruleset: rulesetHookView(tx.urls, owned.at, rs), ...(changes && Object.keys(changes).length ? { changes } : {}) },
  });
}

/**
 * What the bypass list grants the caller, an owner, wherever the ruleset applies: as
 * an organization admin, or by name. Roles and teams are judged per repository, on
 * pushes and merges, so they do not count here.
 */
function ownerBypass(rs: Ruleset, userId: number): BypassMode | null {
  const rank: Record<BypassMode, number> = { pull_request: 1, always: 2, exempt: 3 };
  let best: BypassMode | null = null;
  for (const a of rs.bypassActors) {
    const names = a.actorType === 'OrganizationAdmin' || (a.actorType === 'User' && a.actorId === userId);
    if (names && (best === null || rank[a.bypassMode] > rank[best])) best = a.bypassMode;
  }
  return best;
}

const presented = (owned: Owned, ruleset: Ruleset): PresentedRuleset => ({ at: owned.at, ruleset, canBypass: canBypassWord(ownerBypass(ruleset, owned.userId)) });

async function requireRuleset(ctx: AppContext, owned: Owned, id: number): Promise<Ruleset> {
  const rs = await store.findById(ctx.db, { organizationId: owned.orgId }, id);
  if (!rs) throw new NotFoundError();
  return rs;
}

export async function listOrgRulesets(ctx: AppContext, actor: Actor, login: string, slice: Slice, targets?: string): Promise<Page<PresentedRuleset>> {
  const owned = await requireOwned(ctx, actor, login, false);
  const wanted = targets ? new Set(targets.split(',').map((t) => t.trim()).filter(Boolean)) : null;
  const all = (await store.list(ctx.db, { organizationId: owned.orgId })).filter((rs) => !wanted || wanted.has(rs.target));
  return { items: all.slice(slice.offset, slice.offset + slice.perPage).map((rs) => presented(owned, rs)), total: all.length };
}

export async function getOrgRuleset(ctx: AppContext, actor: Actor, login: string, id: number): Promise<PresentedRuleset> {
  const owned = await requireOwned(ctx, actor, login, false);
  return presented(owned, await requireRuleset(ctx, owned, id));
}

export async function createOrgRuleset(ctx: AppContext, actor: Actor, login: string, input: OrgRulesetInput & { name: string; enforcement: Enforcement }): Promise<PresentedRuleset> {
  const user = requireUser(actor);
  const owned = await requireOwned(ctx, actor, login, true);
  const fields: store.RulesetFields = {
    name: nameOf(input.name),
    target: input.target ?? 'branch',
    enforcement: input.enforcement,
    bypassActors: bypassActorsOf(true, input.bypass_actors ?? []),
    conditions: conditionsOf(input.conditions),
    repositoryCondition: await repositoryConditionOf(ctx, owned.orgId, input.target ?? 'branch', input.conditions),
    rules: checkRules(input.rules ?? []),
  };
  await requireUniqueName(ctx, { organizationId: owned.orgId }, fields.name, null);
  const created = await unlessDuplicate(inTransaction(ctx, async (tx) => {
    const rs = await store.insert(tx.db, { organizationId: owned.orgId }, fields, nowIso(tx.clock));
    await announce(tx, user.id, owned, rs, 'created');
    return rs;
  }));
  return presented(owned, created);
}

/** PUT /orgs/{org}/rulesets/{id}: what is given replaces that part (conditions whole); what is omitted stays. */
export async function updateOrgRuleset(ctx: AppContext, actor: Actor, login: string, id: number, input: OrgRulesetInput): Promise<PresentedRuleset> {
  const user = requireUser(actor);
  const owned = await requireOwned(ctx, actor, login, true);
  const current = await requireRuleset(ctx, owned, id);
  const fields: store.RulesetFields = {
    name: input.name === undefined ? current.name : nameOf(input.name),
    target: input.target ?? current.target,
    enforcement: input.enforcement ?? current.enforcement,
    bypassActors: input.bypass_actors === undefined ? current.bypassActors : bypassActorsOf(true, input.bypass_actors),
    conditions: input.conditions === undefined ? current.conditions : conditionsOf(input.conditions),
    repositoryCondition: input.conditions === undefined ? current.repositoryCondition : await repositoryConditionOf(ctx, owned.orgId, input.target ?? current.target, input.conditions),
    rules: input.rules === undefined ? current.rules : checkRules(input.rules),
  };
  await requireUniqueName(ctx, { organizationId: owned.orgId }, fields.name, id);
  const changes: Record<string, { from: unknown }> = {
    ...(fields.name !== current.name ? { name: { from: current.name } } : {}),
    ...(fields.enforcement !== current.enforcement ? { enforcement: { from: current.enforcement } } : {}),
  };
  const updated = await unlessDuplicate(inTransaction(ctx, async (tx) => {
    const rs = await store.update(tx.db, { organizationId: owned.orgId }, id, fields, nowIso(tx.clock));
    if (!rs) throw new NotFoundError();
    await announce(tx, user.id, owned, rs, 'edited', changes);
    return rs;
  }));
  return presented(owned, updated);
}

export async function deleteOrgRuleset(ctx: AppContext, actor: Actor, login: string, id: number): Promise<void> {
  const user = requireUser(actor);
  const owned = await requireOwned(ctx, actor, login, true);
  const current = await requireRuleset(ctx, owned, id);
  await inTransaction(ctx, async (tx) => {
    if (!(await store.remove(tx.db, { organizationId: owned.orgId }, id))) throw new NotFoundError();
    await announce(tx, user.id, owned, current, 'deleted');
  });
}
