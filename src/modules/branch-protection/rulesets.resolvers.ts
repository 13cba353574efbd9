// GraphQL resolvers of repository rulesets, on the rulesets service (the one REST
// calls). A RulesetNode is only made for a ruleset of a repository the caller may read.
import { offsetConnection, type ConnectionArgs } from '../../graphql/connection.ts';
import type { GraphQLContext } from '../../graphql/context.ts';
import { load } from '../../graphql/loaders.ts';
import type { GraphQLModule } from '../../graphql/module.ts';
import { encodeNodeId, numericId } from '../../graphql/node-id.ts';
import { NotFoundError } from '../../domain/errors.ts';
import type { Repo } from '../repos/repos.model.ts';
import { repositoryById, type RepositoryNode } from '../repos/repos.resolvers.ts';
import type { Ruleset } from './rulesets.model.ts';
import { rulesetsTypeDefs } from './rulesets.graphql.ts';
import * as rulesets from './rulesets.service.ts';

export interface RulesetNode {
  __typename: 'RepositoryRuleset';
  repo: Repo;
  ruleset: Ruleset;
}

const rulesetNode = (repo: Repo, ruleset: Ruleset): RulesetNode => ({ __typename: 'RepositoryRuleset', repo, ruleset });

const rulesetFields = {
  id: (r: RulesetNode) => encodeNodeId('RepositoryRuleset', r.ruleset.id),
  databaseId: (r: RulesetNode) => r.ruleset.id,
  name: (r: RulesetNode) => r.ruleset.name,
  enforcement: (r: RulesetNode) => r.ruleset.enforcement.toUpperCase(),
  target: (r: RulesetNode) => r.ruleset.target.toUpperCase(),
  conditions: (r: RulesetNode) => ({ refName: r.ruleset.conditions ? r.ruleset.conditions.refName : null }),
  createdAt: (r: RulesetNode) => r.ruleset.createdAt,
  updatedAt: (r: RulesetNode) => r.ruleset.updatedAt,
};

const repositoryFields = {
  ruleset: async (r: RepositoryNode, args: { databaseId: number }, g: GraphQLContext) => {
    try {
      // The repository's own rulesets: RepositoryRuleset's fields here are a repository's.
      const found = await rulesets.getRuleset(g.ctx, g.actor, r.repo.owner.login, r.repo.name, args.databaseId, false);
      return rulesetNode(r.repo, found.ruleset);
    } catch (err) {
      if (err instanceof NotFoundError) return null;
      throw err;
    }
  },
  rulesets: (r: RepositoryNode, args: ConnectionArgs, g: GraphQLContext) =>
    offsetConnection(args, async (offset, limit) => {
      const page = await rulesets.listRulesets(g.ctx, g.actor, r.repo.owner.login, r.repo.name, { offset, perPage: limit }, undefined, false);
      return { items: page.items.map((x) => rulesetNode(r.repo, x.ruleset)), total: page.total };
    }),
};

export const rulesetsGraphQL: GraphQLModule = {
  name: 'rulesets',
  typeDefs: rulesetsTypeDefs,
  resolvers: {
    Repository: repositoryFields,
    RepositoryRuleset: rulesetFields,
  },
  nodes: {
    RepositoryRuleset: async (g, id) => {
      const n = numericId(id);
      const found = n === null ? null : await rulesets.rulesetById(g.ctx, n);
      const repo = found ? await load(g, repositoryById, found.repositoryId) : null;
      return found && repo ? rulesetNode(repo.repo, found) : null;
    },
  },
};
