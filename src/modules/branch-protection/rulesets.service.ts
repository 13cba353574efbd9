// Repository rulesets (…/rulesets): reading them takes read access to the repository,
// managing them its admin role, as upstream. Read through a repository, the list and a
// ruleset by id include its organization's rulesets that cover it (includes_parents,
// true unless said otherwise); those are managed under /orgs/{org}/rulesets only. Input is checked whole before anything is
// written (names unique within the repository, bypass actors that can apply, each
// rule's type and parameters); every change is announced as a repository_ruleset
// webhook in its transaction. What the rulesets mean for pushes, refs and merges is
// ref-rules.service's.
import { inTransaction, type AppContext } from '../../context.ts';
import { requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import { recordEvent } from '../../events/outbox.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import { rulesetsOfRef } from './ref-rules.service.ts';
import { bypassOf, canBypassWord, subjectOf, type CanBypass } from './rulesets.bypass.ts';
import { coversRepository, type BypassActor, type BypassMode, type Enforcement, type RefNameCondition, type Ruleset, type Target } from './rulesets.model.ts';
import { checkRules } from './rulesets.rules.ts';
import * as store from './rulesets.store.ts';
import { placeOfRepo, rulesetHookView, type Place } from './rulesets.views.ts';

const RESOURCE = 'Ruleset';

export interface BypassActorInput {
  actor_id?: number | null;
  actor_type: BypassActor['actorType'];
  bypass_mode?: BypassMode;
}

export interface RefNameInput {
  ref_name?: { include?: string[]; exclude?: string[] };
}

export interface RulesetInput {
  name?: string;
  target?: Target;
  enforcement?: Enforcement;
  bypass_actors?: BypassActorInput[];
  conditions?: RefNameInput | null;
  rules?: unknown[];
}

/** A ruleset with what its record shows the caller, and where it is seen from. */
export interface PresentedRuleset {
  at: Place;
  ruleset: Ruleset;
  canBypass: CanBypass;
}

async function present(ctx: AppContext, actor: Actor, repo: Repo, ruleset: Ruleset): Promise<PresentedRuleset> {
  return (await presentAll(ctx, actor, repo, [ruleset]))[0]!;
}

/** Rulesets read through `repo`, each with what the caller may bypass of it there. */
async function presentAll(ctx: AppContext, actor: Actor, repo: Repo, list: readonly Ruleset[]): Promise<PresentedRuleset[]> {
  if (list.length === 0) return [];
  const subject = await subjectOf(ctx, actor, repo);
  return Promise.all(list.map(async (ruleset) => ({ at: placeOfRepo(repo), ruleset, canBypass: canBypassWord(await bypassOf(ctx, subject, repo, ruleset)) })));
}

function invalid(field: string, message: string): ValidationError {
  return ValidationError.field(RESOURCE, field, 'invalid', message);
}

/** Bypass actors as given, checked for an owner that is an organization or not. */
export function bypassActorsOf(ofOrganization: boolean, input: readonly BypassActorInput[]): BypassActor[] {
  return input.map((a) => {
    const mode = a.bypass_mode ?? 'always';
    const needsId = a.actor_type !== 'OrganizationAdmin' && a.actor_type !== 'DeployKey';
    if (needsId && (a.actor_id === undefined || a.actor_id === null)) throw invalid('bypass_actors', `Invalid bypass actor: actor_id is required for ${a.actor_type}`);
    if (a.actor_type === 'OrganizationAdmin' && !ofOrganization) {
      throw invalid('bypass_actors', 'Invalid bypass actor: OrganizationAdmin is not applicable for personal repositories');
    }
    if (a.actor_type === 'DeployKey' && mode === 'pull_request') throw invalid('bypass_actors', 'Invalid bypass actor: pull_request is not applicable for DeployKey');
    return { actorId: needsId ? a.actor_id! : null, actorType: a.actor_type, bypassMode: mode };
  });
}

export function conditionsOf(input: RefNameInput | null | undefined): Ruleset['conditions'] {
  if (!input?.ref_name) return null;
  const refName: RefNameCondition = { include: [...new Set(input.ref_name.include ?? [])], exclude: [...new Set(input.ref_name.exclude ?? [])] };
  return { refName };
}

export function nameOf(raw: string): string {
  const name = raw.trim();
  if (!name) throw invalid('name', "Name can't be blank");
  return name;
}

export async function requireUniqueName(ctx: AppContext, owner: store.Owner, name: string, self: number | null): Promise<void> {
  const other = await store.findByName(ctx.db, owner, name);
  if (other && other.id !== self) throw nameTaken();
}

async function announce(tx: AppContext, actorId: number, repo: Repo, rs: Ruleset, action: 'created' | 'edited' | 'deleted', changes?: Record<string, { from: unknown }>): Promise<void> {
  await recordEvent(tx, {
    event: 'repository_ruleset', action, repositoryId: repo.id,
    organizationId: repo.owner.type === 'Organization' ? repo.ownerId : null, actorId,
    payload: { repository_ruleset: rulesetHookView(tx.urls, placeOfRepo(repo), rs), ...(changes && Object.keys(changes).length ? { changes } : {}) },
  });
}

function nameTaken(): ValidationError {
  return new ValidationError([{ resource: RESOURCE, field: 'name', code: 'already_exists', message: 'Name must be unique' }]);
}

/** A create or rename that raced another to the same name (the unique index saw it): the same 422. */
export async function unlessDuplicate<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw store.isDuplicate(err) ? nameTaken() : err;
  }
}

/** The organization's rulesets covering the repository, when it belongs to one. */
async function parentRulesets(ctx: AppContext, repo: Repo): Promise<Ruleset[]> {
  if (repo.owner.type !== 'Organization') return [];
  return (await store.list(ctx.db, { organizationId: repo.ownerId })).filter((rs) => coversRepository(rs, repo));
}

export async function listRulesets(
  ctx: AppContext, actor: Actor, owner: string, name: string, slice: Slice, targets?: string, includesParents = true,
): Promise<Page<PresentedRuleset>> {
  const { repo } = await repos.locate(ctx, actor, owner, name);
  const wanted = targets ? new Set(targets.split(',').map((t) => t.trim()).filter(Boolean)) : null;
  const own = await store.list(ctx.db, { repositoryId: repo.id });
  const all = [...own, ...(includesParents ? await parentRulesets(ctx, repo) : [])].filter((rs) => !wanted || wanted.has(rs.target));
  return { items: await presentAll(ctx, actor, repo, all.slice(slice.offset, slice.offset + slice.perPage)), total: all.length };
}

async function requireRuleset(ctx: AppContext, repo: Repo, id: number, includesParents = false): Promise<Ruleset> {
  const rs = await store.findById(ctx.db, { repositoryId: repo.id }, id)
    ?? (includesParents ? (await parentRulesets(ctx, repo)).find((p) => p.id === id) : undefined);
  if (!rs) throw new NotFoundError();
  return rs;
}

/**
 * A ruleset by id alone, a repository's or an organization's, for GraphQL's node(id:);
 * the caller checks that the one asking may see it (reads the repository, owns the organization).
 */
export async function rulesetById(ctx: AppContext, id: number): Promise<Ruleset | null> {
  return store.findAnyById(ctx.db, id);
}

export async function getRuleset(ctx: AppContext, actor: Actor, owner: string, name: string, id: number, includesParents = true): Promise<PresentedRuleset> {
  const { repo } = await repos.locate(ctx, actor, owner, name);
  return present(ctx, actor, repo, await requireRuleset(ctx, repo, id, includesParents));
}

export async function createRuleset(ctx: AppContext, actor: Actor, owner: string, name: string, input: RulesetInput & { name: string; enforcement: Enforcement }): Promise<PresentedRuleset> {
  const user = requireUser(actor);
  const { repo } = await repos.locate(ctx, actor, owner, name, 'admin');
  const fields: store.RulesetFields = {
    name: nameOf(input.name),
    target: input.target ?? 'branch',
    enforcement: input.enforcement,
    bypassActors: bypassActorsOf(repo.owner.type === 'Organization', input.bypass_actors ?? []),
    conditions: conditionsOf(input.conditions),
    repositoryCondition: null,
    rules: checkRules(input.rules ?? []),
  };
  await requireUniqueName(ctx, { repositoryId: repo.id }, fields.name, null);
  const created = await unlessDuplicate(inTransaction(ctx, async (tx) => {
    const rs = await store.insert(tx.db, { repositoryId: repo.id }, fields, nowIso(tx.clock));
    await announce(tx, user.id, repo, rs, 'created');
    return rs;
  }));
  return present(ctx, actor, repo, created);
}

/** PUT …/rulesets/{id}: what is given replaces that part; what is omitted stays. */
export async function updateRuleset(ctx: AppContext, actor: Actor, owner: string, name: string, id: number, input: RulesetInput): Promise<PresentedRuleset> {
  const user = requireUser(actor);
  const { repo } = await repos.locate(ctx, actor, owner, name, 'admin');
  const current = await requireRuleset(ctx, repo, id);
  const fields: store.RulesetFields = {
    name: input.name === undefined ? current.name : nameOf(input.name),
    target: input.target ?? current.target,
    enforcement: input.enforcement ?? current.enforcement,
    bypassActors: input.bypass_actors === undefined ? current.bypassActors : bypassActorsOf(repo.owner.type === 'Organization', input.bypass_actors),
    conditions: input.conditions === undefined ? current.conditions : conditionsOf(input.conditions),
    repositoryCondition: null,
    rules: input.rules === undefined ? current.rules : checkRules(input.rules),
  };
  await requireUniqueName(ctx, { repositoryId: repo.id }, fields.name, id);
  const changes: Record<string, { from: unknown }> = {
    ...(fields.name !== current.name ? { name: { from: current.name } } : {}),
    ...(fields.enforcement !== current.enforcement ? { enforcement: { from: current.enforcement } } : {}),
  };
  const updated = await unlessDuplicate(inTransaction(ctx, async (tx) => {
    const rs = await store.update(tx.db, { repositoryId: repo.id }, id, fields, nowIso(tx.clock));
    if (!rs) throw new NotFoundError();
    await announce(tx, user.id, repo, rs, 'edited', changes);
    return rs;
  }));
  return present(ctx, actor, repo, updated);
}

export async function deleteRuleset(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<void> {
  const user = requireUser(actor);
  const { repo } = await repos.locate(ctx, actor, owner, name, 'admin');
  const current = await requireRuleset(ctx, repo, id);
  await inTransaction(ctx, async (tx) => {
    if (!(await store.remove(tx.db, { repositoryId: repo.id }, id))) throw new NotFoundError();
    await announce(tx, user.id, repo, current, 'deleted');
  });
}

/** GET …/rules/branches/{branch}: every rule of the active rulesets covering the branch, with its ruleset. */
export async function branchRulesets(ctx: AppContext, actor: Actor, owner: string, name: string, branch: string): Promise<{ at: Place; rulesets: Ruleset[] }> {
  const { repo } = await repos.locate(ctx, actor, owner, name);
  return { at: placeOfRepo(repo), rulesets: await rulesetsOfRef(ctx, repo, `refs/heads/${branch}`) };
}
