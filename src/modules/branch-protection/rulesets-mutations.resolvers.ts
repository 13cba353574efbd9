// GraphQL's ruleset mutations on the rulesets services REST calls: the input is put
// into REST's terms (rule types and parameters snake_case, global ids to database ids)
// and then checked by the same code, so a bad one is the same refusal (UNPROCESSABLE,
// with REST's message) and nothing is written. createRepositoryRuleset makes a
// repository's ruleset or an organization's, by the node sourceId names.
import type { GraphQLContext } from '../../graphql/context.ts';
import { asMutation, GraphQLApiError, notFound } from '../../graphql/errors.ts';
import { load } from '../../graphql/loaders.ts';
import { decodeNodeId, idOfType, numericId } from '../../graphql/node-id.ts';
import { requireScope } from '../../domain/actor.ts';
import { ValidationError } from '../../domain/errors.ts';
import type { Repo } from '../repos/repos.model.ts';
import { repositoryById } from '../repos/repos.resolvers.ts';
import { accountById } from '../users/users.resolvers.ts';
import type { ActorType, BypassMode, Enforcement, Target } from './rulesets.model.ts';
import * as rulesetsOrg from './rulesets-org.service.ts';
import type { OrgConditionsInput } from './rulesets-org.service.ts';
import * as rulesets from './rulesets.service.ts';
import type { BypassActorInput } from './rulesets.service.ts';

const RESOURCE = 'Ruleset';
/** What REST's repository ruleset routes accept (rulesets.routes); a public_repo token reaches public repositories only. */
const REPO_SCOPES = ['public_repo', 'repo'];
/** Any token that could manage some ruleset; each mutation then asks what its ruleset's owner needs. */
export const RULESET_MUTATION_SCOPES = ['public_repo', 'repo', 'admin:org'];

interface BypassActorGraphQLInput {
  actorId?: string | null;
  bypassMode: 'ALWAYS' | 'PULL_REQUEST';
  deployKey?: boolean | null;
  enterpriseOwner?: boolean | null;
  organizationAdmin?: boolean | null;
  repositoryRoleDatabaseId?: number | null;
}

interface ConditionsGraphQLInput {
  refName?: { include: string[]; exclude: string[] } | null;
  repositoryId?: { repositoryIds: string[] } | null;
  repositoryName?: { include: string[]; exclude: string[]; protected?: boolean | null } | null;
  repositoryProperty?: unknown;
}

interface RuleGraphQLInput {
  id?: string | null;
  type: string;
  parameters?: Record<string, unknown> | null;
}

interface RulesetFieldsInput {
  clientMutationId?: string | null;
  name?: string | null;
  enforcement?: string | null;
  target?: string | null;
  conditions?: ConditionsGraphQLInput | null;
  rules?: RuleGraphQLInput[] | null;
  bypassActors?: BypassActorGraphQLInput[] | null;
}

type CreateInput = RulesetFieldsInput & { sourceId: string; name: string; enforcement: string; conditions: ConditionsGraphQLInput };
type UpdateInput = RulesetFieldsInput & { repositoryRulesetId: string };

function invalid(field: string, message: string): ValidationError {
  return ValidationError.field(RESOURCE, field, 'invalid', message);
}

function unresolvable(id: string): GraphQLApiError {
  return notFound(`Could not resolve to a node with the global id of '${id}'.`);
}

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camel = (key: string) => key.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/** GraphQL's names back to REST's, nested records and lists too; GraphQL's nulls are REST's omissions. */
function snakeCased(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCased);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => [snake(k), snakeCased(v)]));
}

/**
 * A rule in REST's terms: its type lower-cased, its parameters those of the one
 * RuleParametersInput field its type names (`pullRequest` for PULL_REQUEST); any other
 * field given is refused, since it could not apply.
 */
function ruleOf(r: RuleGraphQLInput): { type: string; parameters?: unknown } {
  const type = r.type.toLowerCase();
  const given = Object.entries(r.parameters ?? {}).filter(([, v]) => v !== null && v !== undefined);
  const other = given.find(([k]) => k !== camel(type));
  if (other) throw invalid('rules', `Invalid rule '${type}': parameters must be given as ${camel(type)}, not ${other[0]}`);
  const own = given.find(([k]) => k === camel(type));
  return own ? { type, parameters: snakeCased(own[1]) } : { type };
}

/** A bypass actor in REST's terms: exactly one of an app's, team's or user's id, a role, organization admins, deploy keys. */
function bypassActorOf(a: BypassActorGraphQLInput): BypassActorInput {
  const mode: BypassMode = a.bypassMode === 'PULL_REQUEST' ? 'pull_request' : 'always';
  const kinds = [a.actorId != null, a.repositoryRoleDatabaseId != null, a.organizationAdmin === true, a.deployKey === true, a.enterpriseOwner === true];
  if (kinds.filter(Boolean).length !== 1) {
    throw invalid('bypass_actors', 'Invalid bypass actor: give exactly one of actorId, repositoryRoleDatabaseId, organizationAdmin, deployKey');
  }
  if (a.enterpriseOwner) throw invalid('bypass_actors', 'Invalid bypass actor: enterprise owners are not supported (Wharf has no enterprises)');
  if (a.organizationAdmin) return { actor_type: 'OrganizationAdmin', bypass_mode: mode };
  if (a.deployKey) return { actor_type: 'DeployKey', bypass_mode: mode };
  if (a.repositoryRoleDatabaseId != null) return { actor_type: 'RepositoryRole', actor_id: a.repositoryRoleDatabaseId, bypass_mode: mode };
  const ref = idOfType(a.actorId!, 'Integration', 'App', 'Team', 'User');
  if (!ref) throw invalid('bypass_actors', `Invalid bypass actor: ${a.actorId} is not the id of an app, a team or a user`);
  const actorType: ActorType = ref.type === 'Integration' || ref.type === 'App' ? 'Integration' : ref.type === 'Team' ? 'Team' : 'User';
  return { actor_type: actorType, actor_id: ref.id, bypass_mode: mode };
}

/** Repository ids among the conditions' global ids; one that names no repository is refused. */
function repositoryIdsOf(ids: readonly string[]): number[] {
  return ids.map((id) => {
    const ref = idOfType(id, 'Repository');
    if (!ref) throw invalid('conditions', `Invalid conditions: ${id} is not the id of a repository`);
    return ref.id;
  });
}

/** Conditions in REST's terms; a repository's ruleset names refs only. */
function conditionsOf(c: ConditionsGraphQLInput, forOrganization: boolean): OrgConditionsInput {
  const byRepository = c.repositoryId != null || c.repositoryName != null || c.repositoryProperty != null;
  if (byRepository && !forOrganization) throw invalid('conditions', 'Invalid conditions: a repository ruleset takes refName only');
  return {
    ...(c.refName ? { ref_name: { include: c.refName.include, exclude: c.refName.exclude } } : {}),
    ...(c.repositoryName ? { repository_name: { include: c.repositoryName.include, exclude: c.repositoryName.exclude, ...(c.repositoryName.protected != null ? { protected: c.repositoryName.protected } : {}) } } : {}),
    ...(c.repositoryId ? { repository_id: { repository_ids: repositoryIdsOf(c.repositoryId.repositoryIds) } } : {}),
    ...(c.repositoryProperty != null ? { repository_property: c.repositoryProperty } : {}),
  };
}

/** The fields given, in REST's terms (what is left out stays, on update). */
function fieldsOf(input: RulesetFieldsInput, forOrganization: boolean) {
  return {
    ...(input.name != null ? { name: input.name } : {}),
    ...(input.enforcement != null ? { enforcement: input.enforcement.toLowerCase() as Enforcement } : {}),
    ...(input.target != null ? { target: input.target.toLowerCase() as Target } : {}),
    ...(input.conditions != null ? { conditions: conditionsOf(input.conditions, forOrganization) } : {}),
    ...(input.rules != null ? { rules: input.rules.map(ruleOf) } : {}),
    ...(input.bypassActors != null ? { bypass_actors: input.bypassActors.map(bypassActorOf) } : {}),
  };
}

type Source = { kind: 'repo'; repo: Repo } | { kind: 'org'; login: string };

/**
 * Managing a repository's rulesets takes the scopes REST's routes accept (repo, or
 * public_repo for a public repository); an organization's, admin:org, which its
 * service asks for itself.
 */
function requireSourceScope(g: GraphQLContext, source: Source): void {
  if (source.kind === 'repo') requireScope(g.actor, ...REPO_SCOPES);
}

/** The repository or organization a global id names, as the caller may see it. */
async function sourceOf(g: GraphQLContext, id: string): Promise<Source> {
  const ref = idOfType(id, 'Repository', 'Organization');
  if (ref?.type === 'Repository') {
    const node = await load(g, repositoryById, ref.id);
    if (node) return { kind: 'repo', repo: node.repo };
  } else if (ref?.type === 'Organization') {
    const account = await load(g, accountById, ref.id);
    if (account?.type === 'Organization') return { kind: 'org', login: account.login };
  }
  throw unresolvable(id);
}

/** The ruleset a global id names and where it lives, as the caller may see it. */
async function rulesetOf(g: GraphQLContext, globalId: string): Promise<{ id: number; source: Source }> {
  const decoded = decodeNodeId(globalId);
  const id = decoded?.type === 'RepositoryRuleset' ? numericId(decoded.id) : null;
  const found = id === null ? null : await rulesets.rulesetById(g.ctx, id);
  if (found?.repositoryId != null) {
    const node = await load(g, repositoryById, found.repositoryId);
    if (node) return { id: found.id, source: { kind: 'repo', repo: node.repo } };
  } else if (found?.organizationId != null) {
    const account = await load(g, accountById, found.organizationId);
    if (account) return { id: found.id, source: { kind: 'org', login: account.login } };
  }
  throw unresolvable(globalId);
}

const rulesetNode = (source: Source, p: rulesets.PresentedRuleset) => ({
  __typename: 'RepositoryRuleset' as const, repo: source.kind === 'repo' ? source.repo : null, ruleset: p.ruleset,
});

async function createRepositoryRuleset(_: unknown, { input }: { input: CreateInput }, g: GraphQLContext) {
  const source = await sourceOf(g, input.sourceId);
  requireSourceScope(g, source);
  const fields = { ...fieldsOf(input, source.kind === 'org'), name: input.name, enforcement: input.enforcement.toLowerCase() as Enforcement };
  const created = await asMutation(g, 'CreateRepositoryRuleset', async () => (source.kind === 'repo'
    ? rulesets.createRuleset(g.ctx, g.actor, source.repo.owner.login, source.repo.name, fields)
    : rulesetsOrg.createOrgRuleset(g.ctx, g.actor, source.login, fields)));
  return { clientMutationId: input.clientMutationId ?? null, ruleset: rulesetNode(source, created) };
}

async function updateRepositoryRuleset(_: unknown, { input }: { input: UpdateInput }, g: GraphQLContext) {
  const { id, source } = await rulesetOf(g, input.repositoryRulesetId);
  requireSourceScope(g, source);
  const fields = fieldsOf(input, source.kind === 'org');
  const updated = await asMutation(g, 'UpdateRepositoryRuleset', async () => (source.kind === 'repo'
    ? rulesets.updateRuleset(g.ctx, g.actor, source.repo.owner.login, source.repo.name, id, fields)
    : rulesetsOrg.updateOrgRuleset(g.ctx, g.actor, source.login, id, fields)));
  return { clientMutationId: input.clientMutationId ?? null, ruleset: rulesetNode(source, updated) };
}

async function deleteRepositoryRuleset(_: unknown, { input }: { input: { clientMutationId?: string | null; repositoryRulesetId: string } }, g: GraphQLContext) {
  const { id, source } = await rulesetOf(g, input.repositoryRulesetId);
  requireSourceScope(g, source);
  await asMutation(g, 'DeleteRepositoryRuleset', async () => (source.kind === 'repo'
    ? rulesets.deleteRuleset(g.ctx, g.actor, source.repo.owner.login, source.repo.name, id)
    : rulesetsOrg.deleteOrgRuleset(g.ctx, g.actor, source.login, id)));
  return { clientMutationId: input.clientMutationId ?? null };
}

export const rulesetMutations = { createRepositoryRuleset, updateRepositoryRuleset, deleteRepositoryRuleset };
