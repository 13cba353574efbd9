// GraphQL resolvers of a ruleset's rules and bypass actors (RepositoryRuleset.rules,
// .bypassActors), read from the ruleset the caller already reached. A rule's parameters
// are its REST parameters under GraphQL's names (snake_case → camelCase), with the
// defaults upstream's GraphQL types require. Rules of a type GraphQL does not name
// (copilot_code_review, license_compliance_scanning) are served by REST only.
import { arrayConnection, type ConnectionArgs } from '../../graphql/connection.ts';
import type { GraphQLContext } from '../../graphql/context.ts';
import { encodeNodeId, numericId } from '../../graphql/node-id.ts';
import type { App } from '../apps/apps.model.ts';
import * as apps from '../apps/apps.service.ts';
import * as orgs from '../orgs/orgs.service.ts';
import type { TeamNode } from '../orgs/orgs.resolvers.ts';
import { ROLE_NAMES } from './rulesets.bypass.ts';
import type { BypassActor, RuleEntry, Ruleset } from './rulesets.model.ts';
import { orNull } from '../../graphql/errors.ts';

/** The RepositoryRuleType values, lower-cased as REST's rule types. */
export const GRAPHQL_RULE_TYPES: ReadonlySet<string> = new Set([
  'authorization', 'branch_name_pattern', 'code_scanning', 'committer_email_pattern', 'commit_author_email_pattern', 'commit_message_pattern',
  'creation', 'deletion', 'file_extension_restriction', 'file_path_restriction', 'lock_branch', 'max_file_path_length', 'max_file_size',
  'max_ref_updates', 'merge_queue', 'merge_queue_locked_ref', 'non_fast_forward', 'pull_request', 'required_deployments',
  'required_linear_history', 'required_review_thread_resolution', 'required_signatures', 'required_status_checks',
  'required_workflow_status_checks', 'secret_scanning', 'tag', 'tag_name_pattern', 'update', 'workflows', 'workflow_updates',
]);

/** Rule types with parameters, each with its RuleParameters member and the defaults of its non-null fields REST may leave out. */
const PARAMETER_TYPES: Record<string, { typename: string; defaults: Record<string, unknown> }> = {
  branch_name_pattern: { typename: 'BranchNamePatternParameters', defaults: { negate: false } },
  tag_name_pattern: { typename: 'TagNamePatternParameters', defaults: { negate: false } },
  commit_message_pattern: { typename: 'CommitMessagePatternParameters', defaults: { negate: false } },
  commit_author_email_pattern: { typename: 'CommitAuthorEmailPatternParameters', defaults: { negate: false } },
  committer_email_pattern: { typename: 'CommitterEmailPatternParameters', defaults: { negate: false } },
  code_scanning: { typename: 'CodeScanningParameters', defaults: {} },
  file_extension_restriction: { typename: 'FileExtensionRestrictionParameters', defaults: {} },
  file_path_restriction: { typename: 'FilePathRestrictionParameters', defaults: {} },
  max_file_path_length: { typename: 'MaxFilePathLengthParameters', defaults: {} },
  max_file_size: { typename: 'MaxFileSizeParameters', defaults: {} },
  merge_queue: { typename: 'MergeQueueParameters', defaults: {} },
  pull_request: { typename: 'PullRequestParameters', defaults: {} },
  required_deployments: { typename: 'RequiredDeploymentsParameters', defaults: {} },
  required_status_checks: { typename: 'RequiredStatusChecksParameters', defaults: { doNotEnforceOnCreate: false } },
  update: { typename: 'UpdateParameters', defaults: { updateAllowsFetchAndMerge: false } },
  workflows: { typename: 'WorkflowsParameters', defaults: { doNotEnforceOnCreate: false } },
};

/** A ruleset as GraphQL reached it (see rulesets.resolvers). */
export interface RulesetRef {
  __typename: 'RepositoryRuleset';
  ruleset: Ruleset;
}

export interface RuleNode {
  __typename: 'RepositoryRule';
  parent: RulesetRef;
  rule: RuleEntry;
  /** Its place among the ruleset's rules: with the ruleset's id, its global id. */
  index: number;
}

export interface BypassActorNode {
  __typename: 'RepositoryRulesetBypassActor';
  parent: RulesetRef;
  actor: BypassActor;
  index: number;
}

const camel = (key: string) => key.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/** REST's parameters under GraphQL's names, nested records and lists of them too. */
export function camelCased(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelCased);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [camel(k), camelCased(v)]));
}

function parametersOf(rule: RuleEntry): Record<string, unknown> | null {
  const t = PARAMETER_TYPES[rule.type];
  if (!t) return null;
  return { __typename: t.typename, ...t.defaults, ...(camelCased(rule.parameters ?? {}) as Record<string, unknown>) };
}

export const ruleNodes = (parent: RulesetRef): RuleNode[] => parent.ruleset.rules.flatMap((rule, index) =>
  (GRAPHQL_RULE_TYPES.has(rule.type) ? [{ __typename: 'RepositoryRule' as const, parent, rule, index }] : []));

export const bypassActorNodes = (parent: RulesetRef): BypassActorNode[] =>
  parent.ruleset.bypassActors.map((actor, index) => ({ __typename: 'RepositoryRulesetBypassActor' as const, parent, actor, index }));

export const rulesetConnectionFields = {
  rules: (r: RulesetRef, args: ConnectionArgs & { type?: string | null }) => {
    const wanted = args.type ? args.type.toLowerCase() : null;
    return arrayConnection(ruleNodes(r).filter((n) => wanted === null || n.rule.type === wanted), args);
  },
  bypassActors: (r: RulesetRef, args: ConnectionArgs) => {
    return arrayConnection(bypassActorNodes(r), args);
  },
};

export const ruleFields = {
  id: (n: RuleNode) => encodeNodeId('RepositoryRule', `${n.parent.ruleset.id}:${n.index}`),
  type: (n: RuleNode) => n.rule.type.toUpperCase(),
  parameters: (n: RuleNode) => parametersOf(n.rule),
  repositoryRuleset: (n: RuleNode) => n.parent,
};


/**
 * The app or team a bypass actor names (upstream's BypassActor is one of the two): a
 * team as the caller may see it, a public app; null for the other kinds of actor.
 */
async function actorOf(n: BypassActorNode, g: GraphQLContext): Promise<AppNode | TeamNode | null> {
  const { actorType, actorId } = n.actor;
  if (actorId === null) return null;
  if (actorType === 'Team') {
    const found = await orNull(orgs.getTeamById(g.ctx, g.actor, actorId));
    return found ? { __typename: 'Team' as const, team: found.team } : null;
  }
  if (actorType !== 'Integration') return null;
  const app = (await apps.appsByIds(g.ctx, [actorId])).get(actorId);
  return app?.public ? { __typename: 'App' as const, app } : null;
}

export const bypassActorFields = {
  id: (n: BypassActorNode) => encodeNodeId('RepositoryRulesetBypassActor', `${n.parent.ruleset.id}:${n.index}`),
  actor: (n: BypassActorNode, _args: unknown, g: GraphQLContext) => actorOf(n, g),
  // GraphQL names two modes; an exempt actor's is not one of them.
  bypassMode: (n: BypassActorNode) => (n.actor.bypassMode === 'exempt' ? null : n.actor.bypassMode.toUpperCase()),
  deployKey: (n: BypassActorNode) => n.actor.actorType === 'DeployKey',
  enterpriseOwner: () => false,
  organizationAdmin: (n: BypassActorNode) => n.actor.actorType === 'OrganizationAdmin',
  repositoryRoleDatabaseId: (n: BypassActorNode) => (n.actor.actorType === 'RepositoryRole' ? n.actor.actorId : null),
  repositoryRoleName: (n: BypassActorNode) => (n.actor.actorType === 'RepositoryRole' && n.actor.actorId !== null ? ROLE_NAMES[n.actor.actorId] ?? null : null),
  repositoryRuleset: (n: BypassActorNode) => n.parent,
};

interface AppNode {
  __typename: 'App';
  app: App;
}

/** node(id:) of an app: a public one, as bypass actors show them. */
export async function appNodeOf(g: GraphQLContext, id: string): Promise<AppNode | null> {
  const n = numericId(id);
  const app = n === null ? undefined : (await apps.appsByIds(g.ctx, [n])).get(n);
  return app?.public ? { __typename: 'App', app } : null;
}

export const appFields = {
  id: (a: AppNode) => encodeNodeId('Integration', a.app.id),
  databaseId: (a: AppNode) => a.app.id,
  clientId: (a: AppNode) => a.app.clientId,
  name: (a: AppNode) => a.app.name,
  slug: (a: AppNode) => a.app.slug,
  description: (a: AppNode) => a.app.description,
  url: (a: AppNode) => a.app.externalUrl,
  createdAt: (a: AppNode) => a.app.createdAt,
  updatedAt: (a: AppNode) => a.app.updatedAt,
};
