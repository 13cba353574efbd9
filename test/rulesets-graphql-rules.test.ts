// A ruleset's rules and bypass actors in GraphQL (RepositoryRuleset.rules with each
// rule's parameters, filtered by type; .bypassActors; node(id:) of a rule), and the
// mutations createRepositoryRuleset, updateRepositoryRuleset and deleteRepositoryRuleset
// for a repository and an organization, checked against what REST reads back; bad
// input is UNPROCESSABLE with REST's message and changes nothing; callers without the
// right get FORBIDDEN, NOT_FOUND or INSUFFICIENT_SCOPES as on the other mutations.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { gql, graphqlErrors } from './helpers/graphql.ts';
import { createToken, createUser, type CreatedUser } from './factories/accounts.ts';
import { addCollaborator } from './factories/issues.ts';
import { addMember, createOrgWithOwner, createTeam, type CreatedOrg, type CreatedTeam } from './factories/orgs.ts';
import { uniqueName } from './factories/pulls.ts';
import { encodeNodeId } from '../src/domain/node-id.ts';

let t: TestServer;
before(async () => { t = await startTestServer(); });
after(async () => { await t.close(); });

const REFS = { ref_name: { include: ['~DEFAULT_BRANCH'], exclude: [] } };

const RULES_QUERY = `query($id: ID!) { node(id: $id) { ... on RepositoryRuleset {
  rules(first: 10) { totalCount nodes { id type repositoryRuleset { name } parameters {
    __typename
    ... on PullRequestParameters { requiredApprovingReviewCount dismissStaleReviewsOnPush requireCodeOwnerReview requireLastPushApproval requiredReviewThreadResolution allowedMergeMethods }
    ... on RequiredStatusChecksParameters { strictRequiredStatusChecksPolicy doNotEnforceOnCreate requiredStatusChecks { context integrationId } }
    ... on CommitMessagePatternParameters { operator pattern negate name }
    ... on UpdateParameters { updateAllowsFetchAndMerge }
  } } }
  onlyUpdate: rules(first: 10, type: UPDATE) { totalCount nodes { type } }
  bypassActors(first: 10) { totalCount nodes { actor { __typename ... on Team { slug } } bypassMode organizationAdmin deployKey enterpriseOwner repositoryRoleDatabaseId repositoryRoleName repositoryRuleset { name } } }
} } }`;

interface RuleNode { id: string; type: string; repositoryRuleset: { name: string }; parameters: Record<string, unknown> | null }
interface ActorNode {
  actor: { __typename: string; slug?: string } | null; bypassMode: string | null; organizationAdmin: boolean; deployKey: boolean;
  enterpriseOwner: boolean; repositoryRoleDatabaseId: number | null; repositoryRoleName: string | null; repositoryRuleset: { name: string };
}
interface RulesAnswer {
  node: { rules: { totalCount: number; nodes: RuleNode[] }; onlyUpdate: { totalCount: number; nodes: { type: string }[] }; bypassActors: { totalCount: number; nodes: ActorNode[] } };
}

const CREATE = `mutation($input: CreateRepositoryRulesetInput!) { createRepositoryRuleset(input: $input) {
  clientMutationId ruleset { id databaseId name enforcement target source { __typename } rules(first: 10) { nodes { type } } } } }`;
const UPDATE = `mutation($input: UpdateRepositoryRulesetInput!) { updateRepositoryRuleset(input: $input) {
  clientMutationId ruleset { databaseId name enforcement rules(first: 10) { nodes { type } } } } }`;
const DELETE = 'mutation($input: DeleteRepositoryRulesetInput!) { deleteRepositoryRuleset(input: $input) { clientMutationId } }';

interface CreatedRuleset { id: string; databaseId: number; name: string; enforcement: string; target: string; source: { __typename: string }; rules: { nodes: { type: string }[] } }

describe('rulesets in GraphQL: rules, bypass actors and mutations', () => {
  let org: CreatedOrg;
  let repo: string;
  let repoNodeId: string;
  let team: CreatedTeam;
  let writer: CreatedUser;
  let outsider: CreatedUser;

  /** The repository's own rulesets as stored, for "nothing changed". */
  const storedNames = async () => (await t.octokit(org.owner.token).rest.repos.getRepoRulesets({ owner: org.login, repo, includes_parents: false })).data.map((r) => r.name).sort();

  before(async () => {
    org = await createOrgWithOwner(t, ['repo', 'user', 'admin:org']);
    repo = `rules-${uniqueName()}`;
    const kit = t.octokit(org.owner.token);
    repoNodeId = (await kit.rest.repos.createInOrg({ org: org.login, name: repo, auto_init: true, private: true })).data.node_id;
    team = await createTeam(t, org.owner.token, org.login);
    writer = await addMember(t, org);
    await addCollaborator(t, org.owner.token, { owner: org.login, repo }, writer, 'push');
    outsider = await createUser(t);
  });

  test('rules carry their parameters under GraphQL names, filter by type; bypass actors say who; node(id:) finds a rule', async () => {
    const kit = t.octokit(org.owner.token);
    const made = (await kit.rest.repos.createRepoRuleset({
      owner: org.login, repo, name: 'read me', enforcement: 'active', conditions: REFS,
      bypass_actors: [
        { actor_id: 5, actor_type: 'RepositoryRole', bypass_mode: 'always' },
        { actor_id: team.id, actor_type: 'Team', bypass_mode: 'pull_request' },
        { actor_type: 'OrganizationAdmin', bypass_mode: 'exempt' },
        { actor_type: 'DeployKey', bypass_mode: 'always' },
      ],
      rules: [
        { type: 'pull_request', parameters: { required_approving_review_count: 2, dismiss_stale_reviews_on_push: true, require_code_owner_review: false, require_last_push_approval: true, required_review_thread_resolution: false, allowed_merge_methods: ['squash'] } },
        { type: 'required_status_checks', parameters: { strict_required_status_checks_policy: true, required_status_checks: [{ context: 'ci/build' }, { context: 'lint', integration_id: 7 }] } },
        { type: 'commit_message_pattern', parameters: { operator: 'starts_with', pattern: 'JIRA-' } },
        { type: 'update' },
        { type: 'non_fast_forward' },
        // Not a RepositoryRuleType: REST serves it, GraphQL leaves it out.
        { type: 'copilot_code_review', parameters: { review_on_push: true } },
      ],
    })).data;
    const data = await gql(t, org.owner.token)<RulesAnswer>(RULES_QUERY, { id: made.node_id });
    const rules = data.node.rules;
    assert.equal(rules.totalCount, 5);
    assert.deepEqual(rules.nodes.map((r) => [r.type, r.repositoryRuleset.name]), [
      ['PULL_REQUEST', 'read me'], ['REQUIRED_STATUS_CHECKS', 'read me'], ['COMMIT_MESSAGE_PATTERN', 'read me'], ['UPDATE', 'read me'], ['NON_FAST_FORWARD', 'read me'],
    ]);
    assert.deepEqual(rules.nodes.map((r) => r.parameters), [
      { __typename: 'PullRequestParameters', requiredApprovingReviewCount: 2, dismissStaleReviewsOnPush: true, requireCodeOwnerReview: false, requireLastPushApproval: true, requiredReviewThreadResolution: false, allowedMergeMethods: ['squash'] },
      // REST may leave out do_not_enforce_on_create and an integration: GraphQL's defaults.
      { __typename: 'RequiredStatusChecksParameters', strictRequiredStatusChecksPolicy: true, doNotEnforceOnCreate: false, requiredStatusChecks: [{ context: 'ci/build', integrationId: null }, { context: 'lint', integrationId: 7 }] },
      { __typename: 'CommitMessagePatternParameters', operator: 'starts_with', pattern: 'JIRA-', negate: false, name: null },
      { __typename: 'UpdateParameters', updateAllowsFetchAndMerge: false },
      null,
    ]);
    assert.deepEqual(data.node.onlyUpdate, { totalCount: 1, nodes: [{ type: 'UPDATE' }] });

    const actors = data.node.bypassActors;
    assert.equal(actors.totalCount, 4);
    const base = { actor: null, organizationAdmin: false, deployKey: false, enterpriseOwner: false, repositoryRoleDatabaseId: null, repositoryRoleName: null, repositoryRuleset: { name: 'read me' } };
    assert.deepEqual(actors.nodes, [
      { ...base, bypassMode: 'ALWAYS', repositoryRoleDatabaseId: 5, repositoryRoleName: 'admin' },
      { ...base, bypassMode: 'PULL_REQUEST', actor: { __typename: 'Team', slug: team.slug } },
      // Exempt is not a mode GraphQL names.
      { ...base, bypassMode: null, organizationAdmin: true },
      { ...base, bypassMode: 'ALWAYS', deployKey: true },
    ]);

    // A rule's global id resolves to the same rule, for those who see its ruleset only.
    const ruleId = rules.nodes[2]!.id;
    const query = 'query($id: ID!) { node(id: $id) { __typename ... on RepositoryRule { type } } }';
    assert.deepEqual((await gql(t, org.owner.token)<{ node: unknown }>(query, { id: ruleId })).node, { __typename: 'RepositoryRule', type: 'COMMIT_MESSAGE_PATTERN' });
    const hidden = await graphqlErrors(gql(t, outsider.token)(query, { id: ruleId }));
    assert.equal(hidden.errors[0]?.type, 'NOT_FOUND');
    await kit.rest.repos.deleteRepoRuleset({ owner: org.login, repo, ruleset_id: made.id });
  });

  test('createRepositoryRuleset, updateRepositoryRuleset and deleteRepositoryRuleset on a repository, as REST reads them', async () => {
    const kit = t.octokit(org.owner.token);
    const created = await gql(t, org.owner.token)<{ createRepositoryRuleset: { clientMutationId: string; ruleset: CreatedRuleset } }>(CREATE, { input: {
      clientMutationId: 'c1', sourceId: repoNodeId, name: 'by graphql', enforcement: 'ACTIVE', target: 'BRANCH',
      conditions: { refName: { include: ['~DEFAULT_BRANCH'], exclude: ['refs/heads/old'] } },
      rules: [
        { type: 'PULL_REQUEST', parameters: { pullRequest: { requiredApprovingReviewCount: 1, dismissStaleReviewsOnPush: false, requireCodeOwnerReview: true, requireLastPushApproval: false, requiredReviewThreadResolution: true } } },
        { type: 'REQUIRED_STATUS_CHECKS', parameters: { requiredStatusChecks: { strictRequiredStatusChecksPolicy: false, requiredStatusChecks: [{ context: 'ci', integrationId: 3 }] } } },
        { type: 'DELETION' },
      ],
      bypassActors: [{ repositoryRoleDatabaseId: 5, bypassMode: 'ALWAYS' }, { actorId: encodeNodeId('Team', team.id), bypassMode: 'PULL_REQUEST' }],
    } });
    const rs = created.createRepositoryRuleset.ruleset;
    assert.equal(created.createRepositoryRuleset.clientMutationId, 'c1');
    assert.deepEqual([rs.name, rs.enforcement, rs.target, rs.source.__typename], ['by graphql', 'ACTIVE', 'BRANCH', 'Repository']);
    assert.deepEqual(rs.rules.nodes.map((r) => r.type), ['PULL_REQUEST', 'REQUIRED_STATUS_CHECKS', 'DELETION']);
    // REST reads what GraphQL wrote, in REST's terms.
    const rest = (await kit.rest.repos.getRepoRuleset({ owner: org.login, repo, ruleset_id: rs.databaseId })).data;
    assert.equal(rest.node_id, rs.id);
    assert.deepEqual(rest.conditions, { ref_name: { include: ['~DEFAULT_BRANCH'], exclude: ['refs/heads/old'] } });
    assert.deepEqual(rest.rules, [
      { type: 'pull_request', parameters: { required_approving_review_count: 1, dismiss_stale_reviews_on_push: false, require_code_owner_review: true, require_last_push_approval: false, required_review_thread_resolution: true } },
      { type: 'required_status_checks', parameters: { strict_required_status_checks_policy: false, required_status_checks: [{ context: 'ci', integration_id: 3 }] } },
      { type: 'deletion' },
    ]);
    assert.deepEqual(rest.bypass_actors, [
      { actor_id: 5, actor_type: 'RepositoryRole', bypass_mode: 'always' }, { actor_id: team.id, actor_type: 'Team', bypass_mode: 'pull_request' },
    ]);

    // What an update leaves out stays.
    const updated = await gql(t, org.owner.token)<{ updateRepositoryRuleset: { ruleset: { databaseId: number; name: string; enforcement: string; rules: { nodes: { type: string }[] } } } }>(UPDATE, {
      input: { repositoryRulesetId: rs.id, name: 'renamed', enforcement: 'EVALUATE', rules: [{ type: 'NON_FAST_FORWARD' }] },
    });
    assert.deepEqual(updated.updateRepositoryRuleset.ruleset, { databaseId: rs.databaseId, name: 'renamed', enforcement: 'EVALUATE', rules: { nodes: [{ type: 'NON_FAST_FORWARD' }] } });
    const after = (await kit.rest.repos.getRepoRuleset({ owner: org.login, repo, ruleset_id: rs.databaseId })).data;
    assert.deepEqual([after.name, after.enforcement, after.rules, after.conditions, after.bypass_actors], ['renamed', 'evaluate', [{ type: 'non_fast_forward' }], rest.conditions, rest.bypass_actors]);

    const deleted = await gql(t, org.owner.token)<{ deleteRepositoryRuleset: { clientMutationId: string | null } }>(DELETE, { input: { repositoryRulesetId: rs.id, clientMutationId: 'd1' } });
    assert.equal(deleted.deleteRepositoryRuleset.clientMutationId, 'd1');
    assert.equal((await kit.rest.repos.getRepoRuleset({ owner: org.login, repo, ruleset_id: rs.databaseId }).catch((e: { status: number }) => e)).status, 404);
  });

  test('createRepositoryRuleset on an organization makes its ruleset, with repository conditions', async () => {
    const orgNodeId = (await t.octokit(org.owner.token).rest.orgs.get({ org: org.login })).data.node_id;
    const created = await gql(t, org.owner.token)<{ createRepositoryRuleset: { ruleset: CreatedRuleset } }>(CREATE, { input: {
      sourceId: orgNodeId, name: `org ${uniqueName()}`, enforcement: 'DISABLED',
      conditions: { refName: { include: ['~ALL'], exclude: [] }, repositoryId: { repositoryIds: [repoNodeId] } },
      bypassActors: [{ organizationAdmin: true, bypassMode: 'ALWAYS' }],
    } });
    const rs = created.createRepositoryRuleset.ruleset;
    assert.equal(rs.source.__typename, 'Organization');
    const rest = (await t.octokit(org.owner.token).rest.repos.getOrgRuleset({ org: org.login, ruleset_id: rs.databaseId })).data;
    const repoId = (await t.octokit(org.owner.token).rest.repos.get({ owner: org.login, repo })).data.id;
    assert.deepEqual(rest.conditions, { ref_name: { include: ['~ALL'], exclude: [] }, repository_id: { repository_ids: [repoId] } });
    assert.deepEqual(rest.bypass_actors, [{ actor_id: null, actor_type: 'OrganizationAdmin', bypass_mode: 'always' }]);
    // A member is not an owner: the organization's ruleset is not theirs to see.
    const hidden = await graphqlErrors(gql(t, writer.token)(DELETE, { input: { repositoryRulesetId: rs.id } }));
    assert.equal(hidden.errors[0]?.type, 'NOT_FOUND');
    await gql(t, org.owner.token)(DELETE, { input: { repositoryRulesetId: rs.id } });
  });

  test('bad input is UNPROCESSABLE with REST\'s message and changes nothing', async () => {
    const before = await storedNames();
    const create = (input: Record<string, unknown>) => graphqlErrors(gql(t, org.owner.token)(CREATE, { input: { sourceId: repoNodeId, name: `bad ${uniqueName()}`, enforcement: 'ACTIVE', conditions: { refName: { include: ['~ALL'], exclude: [] } }, ...input } }));
    const cases: [Record<string, unknown>, RegExp][] = [
      // A value REST does not take (GraphQL types the operator as any string).
      [{ rules: [{ type: 'COMMIT_MESSAGE_PATTERN', parameters: { commitMessagePattern: { operator: 'sounds_like', pattern: 'x' } } }] }, /invalid value for parameter 'operator'/],
      [{ rules: [{ type: 'BRANCH_NAME_PATTERN', parameters: { branchNamePattern: { operator: 'regex', pattern: '(' } } }] }, /pattern is not a valid regular expression/],
      // Out of REST's range.
      [{ rules: [{ type: 'MAX_FILE_SIZE', parameters: { maxFileSize: { maxFileSize: 500 } } }] }, /invalid value for parameter 'max_file_size'/],
      // Parameters of another rule type.
      [{ rules: [{ type: 'UPDATE', parameters: { pullRequest: { requiredApprovingReviewCount: 1, dismissStaleReviewsOnPush: false, requireCodeOwnerReview: false, requireLastPushApproval: false, requiredReviewThreadResolution: false } } }] }, /parameters must be given as update, not pullRequest/],
      // A rule type Wharf does not know.
      [{ rules: [{ type: 'SECRET_SCANNING' }] }, /Invalid rule type 'secret_scanning'/],
      // A bypass actor must be exactly one thing.
      [{ bypassActors: [{ organizationAdmin: true, deployKey: true, bypassMode: 'ALWAYS' }] }, /give exactly one of/],
      // Repository conditions are an organization ruleset's.
      [{ conditions: { refName: { include: ['~ALL'], exclude: [] }, repositoryName: { include: ['~ALL'], exclude: [] } } }, /a repository ruleset takes refName only/],
      // A blank name.
      [{ name: '  ' }, /Name can't be blank/],
    ];
    for (const [input, message] of cases) {
      const { errors } = await create(input);
      assert.equal(errors[0]?.type, 'UNPROCESSABLE', JSON.stringify(errors));
      assert.match(errors[0]!.message, message);
    }
    assert.deepEqual(await storedNames(), before);
    const unknownSource = await graphqlErrors(gql(t, org.owner.token)(CREATE, { input: { sourceId: 'nope', name: 'x', enforcement: 'ACTIVE', conditions: {} } }));
    assert.deepEqual([unknownSource.errors[0]?.type, unknownSource.errors[0]?.message], ['NOT_FOUND', "Could not resolve to a node with the global id of 'nope'."]);
  });

  test('only admins manage rulesets: a writer gets FORBIDDEN, an outsider NOT_FOUND, a token without repo INSUFFICIENT_SCOPES', async () => {
    const before = await storedNames();
    const input = { sourceId: repoNodeId, name: 'not yours', enforcement: 'ACTIVE', conditions: { refName: { include: ['~ALL'], exclude: [] } } };
    const denied = await graphqlErrors(gql(t, writer.token)(CREATE, { input }));
    assert.deepEqual([denied.errors[0]?.type, denied.errors[0]?.message], ['FORBIDDEN', `${writer.login} does not have the correct permissions to execute \`CreateRepositoryRuleset\``]);
    const hidden = await graphqlErrors(gql(t, outsider.token)(CREATE, { input }));
    assert.equal(hidden.errors[0]?.type, 'NOT_FOUND');
    const narrow = await createToken(t, org.owner.login, ['read:org']);
    const scoped = await graphqlErrors(gql(t, narrow)(CREATE, { input }));
    assert.equal(scoped.errors[0]?.type, 'INSUFFICIENT_SCOPES');
    assert.deepEqual(await storedNames(), before);

    // An existing ruleset: the writer may read it but neither change nor delete it.
    const made = (await t.octokit(org.owner.token).rest.repos.createRepoRuleset({ owner: org.login, repo, name: 'kept', enforcement: 'active', conditions: REFS })).data;
    for (const [query, vars] of [[UPDATE, { repositoryRulesetId: made.node_id, name: 'taken' }], [DELETE, { repositoryRulesetId: made.node_id }]] as const) {
      const e = await graphqlErrors(gql(t, writer.token)(query, { input: vars }));
      assert.equal(e.errors[0]?.type, 'FORBIDDEN');
    }
    assert.equal((await t.octokit(org.owner.token).rest.repos.getRepoRuleset({ owner: org.login, repo, ruleset_id: made.id })).data.name, 'kept');
  });
});
