// Organization rulesets in GraphQL: node(id:) resolves an organization ruleset's REST
// node_id to a RepositoryRuleset for the organization's owners (NOT_FOUND to members and
// outsiders, as REST's 404); Organization.ruleset(databaseId:) and Organization.rulesets
// for owners, null to anyone else; RepositoryRuleset.source names the
// Organization or the Repository that owns it; Repository.rulesets and
// Repository.ruleset include the organization's covering rulesets unless includeParents
// is false, as REST's includes_parents.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { gql, graphqlErrors } from './helpers/graphql.ts';
import { addMember, createOrgWithOwner, type CreatedOrg } from './factories/orgs.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { uniqueName } from './factories/pulls.ts';

let t: TestServer;
before(async () => { t = await startTestServer(); });
after(async () => { await t.close(); });

type Source = { __typename: string; login?: string; nameWithOwner?: string };
interface RulesetFields { databaseId: number; name: string; target: string; enforcement: string; source: Source }
/** What a REST record gives the tests: its id and node_id (always present on Wharf's records). */
function made(r: { id: number; node_id?: string }): { id: number; node_id: string } {
  assert.ok(r.node_id);
  return { id: r.id, node_id: r.node_id };
}

const FIELDS = 'databaseId name target enforcement source { __typename ... on Organization { login } ... on Repository { nameWithOwner } }';

describe('organization rulesets through GraphQL', () => {
  let org: CreatedOrg;
  let member: CreatedUser;
  let repo: string;
  let branchSet: { id: number; node_id: string };
  let tagSet: { id: number; node_id: string };
  let ownSet: { id: number; node_id: string };

  before(async () => {
    org = await createOrgWithOwner(t, ['repo', 'user', 'admin:org']);
    member = await addMember(t, org);
    repo = `api-${uniqueName()}`;
    const kit = t.octokit(org.owner.token);
    await kit.rest.repos.createInOrg({ org: org.login, name: repo, auto_init: true });
    const refs = { ref_name: { include: ['~DEFAULT_BRANCH'], exclude: [] } };
    branchSet = made((await kit.request('POST /orgs/{org}/rulesets', {
      org: org.login, name: 'org main', target: 'branch', enforcement: 'active',
      conditions: { ...refs, repository_name: { include: ['api-*'], exclude: [] } }, rules: [{ type: 'deletion' }],
    })).data);
    tagSet = made((await kit.request('POST /orgs/{org}/rulesets', {
      org: org.login, name: 'org tags', target: 'tag', enforcement: 'evaluate',
      conditions: { ref_name: { include: ['~ALL'], exclude: [] }, repository_name: { include: ['nothing-*'], exclude: [] } }, rules: [{ type: 'deletion' }],
    })).data);
    ownSet = made((await kit.rest.repos.createRepoRuleset({ owner: org.login, repo, name: 'repo own', enforcement: 'active', conditions: refs })).data);
  });

  test('node(id:) resolves an organization ruleset for an owner, with source Organization; members and outsiders get NOT_FOUND', async () => {
    const data = await gql(t, org.owner.token)<{ node: RulesetFields }>(
      `query($id: ID!) { node(id: $id) { ... on RepositoryRuleset { ${FIELDS} } } }`, { id: branchSet.node_id });
    assert.deepEqual(data.node, {
      databaseId: branchSet.id, name: 'org main', target: 'BRANCH', enforcement: 'ACTIVE', source: { __typename: 'Organization', login: org.login },
    });
    const outsider = await createUser(t);
    for (const who of [member, outsider]) {
      const hidden = await graphqlErrors(gql(t, who.token)('query($id: ID!) { node(id: $id) { id } }', { id: branchSet.node_id }));
      assert.equal(hidden.errors[0]?.type, 'NOT_FOUND');
    }
  });

  test('Organization.ruleset and Organization.rulesets answer owners; others get null', async () => {
    const query = `query($login: String!, $db: Int!) { organization(login: $login) {
      ruleset(databaseId: $db) { ${FIELDS} }
      missing: ruleset(databaseId: 999999) { name }
      rulesets(first: 10) { totalCount nodes { id name } }
      page: rulesets(first: 1) { totalCount nodes { name } pageInfo { hasNextPage } }
    } }`;
    type Answer = { organization: { ruleset: RulesetFields | null; missing: unknown; rulesets: { totalCount: number; nodes: { id: string; name: string }[] } | null; page: { totalCount: number; nodes: { name: string }[]; pageInfo: { hasNextPage: boolean } } | null } };
    const seen = await gql(t, org.owner.token)<Answer>(query, { login: org.login, db: branchSet.id });
    assert.equal(seen.organization.ruleset?.name, 'org main');
    assert.deepEqual(seen.organization.ruleset?.source, { __typename: 'Organization', login: org.login });
    assert.equal(seen.organization.missing, null);
    assert.deepEqual(seen.organization.rulesets, { totalCount: 2, nodes: [{ id: branchSet.node_id, name: 'org main' }, { id: tagSet.node_id, name: 'org tags' }] });
    assert.deepEqual(seen.organization.page, { totalCount: 2, nodes: [{ name: 'org main' }], pageInfo: { hasNextPage: true } });
    // A repository's own ruleset is no organization ruleset.
    const notOrg = await gql(t, org.owner.token)<Answer>(query, { login: org.login, db: ownSet.id });
    assert.equal(notOrg.organization.ruleset, null);

    const asMember = await gql(t, member.token)<Answer>(query, { login: org.login, db: branchSet.id });
    assert.equal(asMember.organization.ruleset, null);
    assert.equal(asMember.organization.rulesets, null);
    assert.equal(asMember.organization.page, null);
  });

  test('Repository.rulesets and Repository.ruleset include the covering organization rulesets unless includeParents is false; source says whose', async () => {
    type Answer = { repository: {
      all: { totalCount: number; nodes: RulesetFields[] };
      own: { totalCount: number; nodes: { name: string }[] };
      parent: { name: string; source: Source } | null;
      parentExcluded: { name: string } | null;
      uncovered: { name: string } | null;
    } };
    // A member reads the repository (read access), so sees what covers it, as REST's includes_parents shows.
    const data = await gql(t, member.token)<Answer>(`query($owner: String!, $name: String!, $org: Int!, $tag: Int!) { repository(owner: $owner, name: $name) {
      all: rulesets(first: 10) { totalCount nodes { ${FIELDS} } }
      own: rulesets(first: 10, includeParents: false) { totalCount nodes { name } }
      parent: ruleset(databaseId: $org) { name source { __typename ... on Organization { login } } }
      parentExcluded: ruleset(databaseId: $org, includeParents: false) { name }
      uncovered: ruleset(databaseId: $tag) { name }
    } }`, { owner: org.login, name: repo, org: branchSet.id, tag: tagSet.id });
    assert.deepEqual(data.repository.all.nodes.map((n) => [n.name, n.source]), [
      ['repo own', { __typename: 'Repository', nameWithOwner: `${org.login}/${repo}` }],
      ['org main', { __typename: 'Organization', login: org.login }],
    ]);
    assert.equal(data.repository.all.totalCount, 2);
    assert.deepEqual(data.repository.own, { totalCount: 1, nodes: [{ name: 'repo own' }] });
    assert.deepEqual(data.repository.parent, { name: 'org main', source: { __typename: 'Organization', login: org.login } });
    assert.equal(data.repository.parentExcluded, null);
    assert.equal(data.repository.uncovered, null);
  });
});
