// GraphQL resolvers of rulesets, on the rulesets services (the ones REST calls). A
// RulesetNode is only made for a ruleset the caller may see: a repository's of a
// repository they read, an organization's covering such a repository (REST's
// includes_parents), or an organization's they own (REST's /orgs/{org}/rulesets).
import { offsetConnection, type ConnectionArgs } from '../../graphql/connection.ts';
import type { GraphQLContext } from '../../graphql/context.ts';
import { load } from '../../graphql/loaders.ts';
import type { GraphQLModule } from '../../graphql/module.ts';
import { encodeNodeId, numericId } from '../../graphql/node-id.ts';
import type { Repo } from '../repos/repos.model.ts';
import { repositoryById, repositoryNode, type RepositoryNode } from '../repos/repos.resolvers.ts';
import { accountById, accountNode, type AccountNode } from '../users/users.resolvers.ts';
import type { Ruleset } from './rulesets.model.ts';
import { rulesetMutationsTypeDefs } from './rulesets-mutations.graphql.ts';
import { rulesetMutations, RULESET_MUTATION_SCOPES } from './rulesets-mutations.resolvers.ts';
import { rulesetRulesTypeDefs } from './rulesets-rules.graphql.ts';
import { appFields, appNodeOf, bypassActorFields, bypassActorNodes, ruleFields, ruleNodes, rulesetConnectionFields } from './rulesets-rules.resolvers.ts';
import { rulesetsTypeDefs } from './rulesets.graphql.ts';
import * as rulesetsOrg from './rulesets-org.service.ts';
import * as rulesets from './rulesets.service.ts';
import { orNull } from '../../graphql/errors.ts';

export interface RulesetNode {
  __typename: 'RepositoryRuleset';
  /** The repository it was reached through (its owner, for a repository's own), or null. */
  repo: Repo | null;
  ruleset: Ruleset;
}

const rulesetNode = (repo: Repo | null, ruleset: Ruleset): RulesetNode => ({ __typename: 'RepositoryRuleset', repo, ruleset });


/** Who owns the ruleset: its repository (read by the caller, who reached it), or its organization. */
async function sourceOf(r: RulesetNode, g: GraphQLContext): Promise<RepositoryNode | AccountNode | null> {
  const { repositoryId, organizationId } = r.ruleset;
  if (repositoryId !== null) return r.repo?.id === repositoryId ? repositoryNode(r.repo) : load(g, repositoryById, repositoryId);
  const org = organizationId === null ? null : await load(g, accountById, organizationId);
  return org ? accountNode(org) : null;
}

const rulesetFields = {
  id: (r: RulesetNode) => encodeNodeId('RepositoryRuleset', r.ruleset.id),
  databaseId: (r: RulesetNode) => r.ruleset.id,
  name: (r: RulesetNode) => r.ruleset.name,
  enforcement: (r: RulesetNode) => r.ruleset.enforcement.toUpperCase(),
  target: (r: RulesetNode) => r.ruleset.target.toUpperCase(),
  conditions: (r: RulesetNode) => ({ refName: r.ruleset.conditions ? r.ruleset.conditions.refName : null }),
  source: (r: RulesetNode, _args: unknown, g: GraphQLContext) => sourceOf(r, g),
  createdAt: (r: RulesetNode) => r.ruleset.createdAt,
  updatedAt: (r: RulesetNode) => r.ruleset.updatedAt,
};

const repositoryFields = {
  ruleset: async (r: RepositoryNode, args: { databaseId: number; includeParents?: boolean | null }, g: GraphQLContext) => {
    const found = await orNull(rulesets.getRuleset(g.ctx, g.actor, r.repo.owner.login, r.repo.name, args.databaseId, args.includeParents ?? true));
    return found ? rulesetNode(r.repo, found.ruleset) : null;
  },
  rulesets: (r: RepositoryNode, args: ConnectionArgs & { includeParents?: boolean | null }, g: GraphQLContext) =>
    offsetConnection(args, async (offset, limit) => {
      const page = await rulesets.listRulesets(g.ctx, g.actor, r.repo.owner.login, r.repo.name, { offset, perPage: limit }, undefined, args.includeParents ?? true);
      return { items: page.items.map((x) => rulesetNode(r.repo, x.ruleset)), total: page.total };
    }),
};

/**
 * An organization's own rulesets, for its owners; null to anyone else, as REST's 404.
 * includeParents asks for enterprise rulesets, which Wharf has none of.
 */
const organizationFields = {
  ruleset: async (a: AccountNode, args: { databaseId: number }, g: GraphQLContext) => {
    const found = await orNull(rulesetsOrg.getOrgRuleset(g.ctx, g.actor, a.account.login, args.databaseId));
    return found ? rulesetNode(null, found.ruleset) : null;
  },
  rulesets: async (a: AccountNode, args: ConnectionArgs, g: GraphQLContext) => {
    const list = (offset: number, limit: number) => rulesetsOrg.listOrgRulesets(g.ctx, g.actor, a.account.login, { offset, perPage: limit });
    // Owners only: ask once whether the caller may list them at all.
    if ((await orNull(list(0, 1))) === null) return null;
    return offsetConnection(args, async (offset, limit) => {
      const page = await list(offset, limit);
      return { items: page.items.map((x) => rulesetNode(null, x.ruleset)), total: page.total };
    });
  },
};

/** A ruleset by id as node(id:) finds it: a repository's the caller reads, an organization's they own. */
async function rulesetNodeOf(g: GraphQLContext, id: number): Promise<RulesetNode | null> {
  const found = await rulesets.rulesetById(g.ctx, id);
  if (!found) return null;
  if (found.repositoryId !== null) {
    const repo = await load(g, repositoryById, found.repositoryId);
    return repo ? rulesetNode(repo.repo, found) : null;
  }
  // An organization's: what its owners read at /orgs/{org}/rulesets/{id}.
  const org = found.organizationId === null ? null : await load(g, accountById, found.organizationId);
  const seen = org ? await orNull(rulesetsOrg.getOrgRuleset(g.ctx, g.actor, org.login, found.id)) : null;
  return seen ? rulesetNode(null, seen.ruleset) : null;
}

/** "<ruleset id>:<index>" → its parts; null when malformed. */
function partOf(id: string): { rulesetId: number; index: number } | null {
  const m = /^(\d+):(\d+)$/.exec(id);
  const rulesetId = m ? numericId(m[1]!) : null;
  return m && rulesetId !== null ? { rulesetId, index: Number(m[2]) } : null;
}

export const rulesetsGraphQL: GraphQLModule = {
  name: 'rulesets',
  typeDefs: `${rulesetsTypeDefs}\n${rulesetRulesTypeDefs}\n${rulesetMutationsTypeDefs}`,
  resolvers: {
    Repository: repositoryFields,
    Organization: organizationFields,
    RepositoryRuleset: { ...rulesetFields, ...rulesetConnectionFields },
    RepositoryRule: ruleFields,
    RepositoryRulesetBypassActor: bypassActorFields,
    App: appFields,
    Mutation: rulesetMutations,
  },
  scopes: {
    'Mutation.createRepositoryRuleset': RULESET_MUTATION_SCOPES,
    'Mutation.updateRepositoryRuleset': RULESET_MUTATION_SCOPES,
    'Mutation.deleteRepositoryRuleset': RULESET_MUTATION_SCOPES,
  },
  nodes: {
    RepositoryRuleset: async (g, id) => {
      const n = numericId(id);
      return n === null ? null : rulesetNodeOf(g, n);
    },
    // "<ruleset id>:<place among its rules or bypass actors>", of a ruleset the caller sees.
    RepositoryRule: async (g, id) => {
      const part = partOf(id);
      const parent = part ? await rulesetNodeOf(g, part.rulesetId) : null;
      return (parent && ruleNodes(parent).find((r) => r.index === part!.index)) ?? null;
    },
    RepositoryRulesetBypassActor: async (g, id) => {
      const part = partOf(id);
      const parent = part ? await rulesetNodeOf(g, part.rulesetId) : null;
      return (parent && bypassActorNodes(parent).find((a) => a.index === part!.index)) ?? null;
    },
    // An app's global id is REST's node_id (Integration…); App is its GraphQL type.
    App: appNodeOf,
    Integration: appNodeOf,
  },
};
