// GraphQL roots and types over users, organizations, teams and repositories, read with
// Octokit's GraphQL client, and checked against what REST says of the same objects.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { listEvents } from '../src/events/outbox.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addMember, createOrgWithOwner, createTeam, type CreatedOrg, type CreatedTeam } from './factories/orgs.ts';
import { gql, graphqlErrors, postGraphQL } from './helpers/graphql.ts';

interface PageInfo { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null }
interface Page<N> { totalCount: number; pageInfo: PageInfo; nodes: N[]; edges: { cursor: string; node: N }[] }

describe('GraphQL roots and types', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let org: CreatedOrg;
  let team: CreatedTeam;

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    bob = await createUser(t);
    org = await createOrgWithOwner(t);
    await addMember(t, org, 'member');
    team = await createTeam(t, org.owner.token, org.login, { name: 'Deck Crew', privacy: 'closed' });
    const a = t.octokit(alice.token).rest.repos;
    await a.createForAuthenticatedUser({ name: 'pier', auto_init: true, license_template: 'mit', description: 'A pier' });
    await a.createForAuthenticatedUser({ name: 'vault', private: true, auto_init: true });
    await t.octokit(org.owner.token).rest.repos.createInOrg({ org: org.login, name: 'fleet', auto_init: true });
    await t.octokit(alice.token).rest.users.updateAuthenticated({ name: 'Alice Anchor', location: 'Harbour', bio: 'sails' });
  });
  after(() => t.close());

  test('viewer and user(login:) agree with GET /user and GET /users/{username}', async () => {
    const { data: rest } = await t.octokit(alice.token).rest.users.getAuthenticated();
    const { viewer } = await gql(t, alice.token)<{ viewer: Record<string, unknown> }>(`{
      viewer { __typename id databaseId login name location bio email createdAt updatedAt url resourcePath avatarUrl isViewer isSiteAdmin isHireable websiteUrl twitterUsername company }
    }`);
    assert.deepEqual(viewer, {
      __typename: 'User', id: rest.node_id, databaseId: rest.id, login: rest.login, name: 'Alice Anchor', location: 'Harbour', bio: 'sails',
      email: rest.email, createdAt: rest.created_at, updatedAt: rest.updated_at, url: rest.html_url, resourcePath: `/${rest.login}`,
      avatarUrl: rest.avatar_url, isViewer: true, isSiteAdmin: false, isHireable: false, websiteUrl: null, twitterUsername: null, company: null,
    });
    const { user } = await gql(t, bob.token)<{ user: { id: string; login: string; isViewer: boolean; avatarUrl: string } }>(
      'query($login: String!) { user(login: $login) { id login isViewer avatarUrl(size: 40) } }', { login: alice.login });
    assert.deepEqual(user, { id: rest.node_id, login: alice.login, isViewer: false, avatarUrl: `${rest.avatar_url}&s=40` });
    // An organization is not a user.
    const { errors, data } = await graphqlErrors(gql(t, bob.token)(`{ user(login: "${org.login}") { login } }`));
    assert.deepEqual(data, { user: null });
    assert.equal(errors[0]!.message, `Could not resolve to a User with the login of '${org.login}'.`);
  });

  test('organization(login:) with its members and teams, as REST shows them', async () => {
    const { data: rest } = await t.octokit(org.owner.token).rest.orgs.get({ org: org.login });
    const { data: restTeam } = await t.octokit(org.owner.token).rest.teams.getByName({ org: org.login, team_slug: team.slug });
    const { organization } = await gql(t, org.owner.token)<{ organization: Record<string, unknown> & { teams: Page<Record<string, unknown>>; membersWithRole: Page<{ login: string }> } }>(`{
      organization(login: "${org.login}") {
        __typename id databaseId login name description url resourcePath viewerIsAMember viewerCanAdminister viewerCanCreateTeams viewerCanCreateRepositories isVerified
        membersWithRole(first: 10) { totalCount nodes { login } }
        teams(first: 10) { totalCount nodes { id databaseId name slug combinedSlug privacy notificationSetting description viewerCanAdminister
          organization { login } parentTeam { name } childTeams(first: 5) { totalCount }
          members(first: 10) { totalCount edges { role node { login } } } } }
        team(slug: "${team.slug}") { name }
        missing: team(slug: "no-such-team") { name }
      }
    }`);
    assert.equal(organization.__typename, 'Organization');
    assert.equal(organization.id, rest.node_id);
    assert.equal(organization.databaseId, rest.id);
    assert.equal(organization.url, rest.html_url);
    assert.equal(organization.resourcePath, `/${org.login}`);
    assert.equal(organization.viewerIsAMember, true);
    assert.equal(organization.viewerCanAdminister, true);
    assert.equal(organization.viewerCanCreateTeams, true);
    assert.equal(organization.viewerCanCreateRepositories, true);
    assert.equal(organization.isVerified, false);
    assert.equal(organization.membersWithRole.totalCount, 2);
    assert.ok(organization.membersWithRole.nodes.some((m) => m.login === org.owner.login));
    assert.equal(organization.teams.totalCount, 1);
    assert.deepEqual(organization.teams.nodes[0], {
      id: restTeam.node_id, databaseId: restTeam.id, name: 'Deck Crew', slug: restTeam.slug, combinedSlug: `${org.login}/${restTeam.slug}`,
      privacy: 'VISIBLE', notificationSetting: 'NOTIFICATIONS_ENABLED', description: null, viewerCanAdminister: true,
      organization: { login: org.login }, parentTeam: null, childTeams: { totalCount: 0 },
      members: { totalCount: 1, edges: [{ role: 'MAINTAINER', node: { login: org.owner.login } }] },
    });
    assert.deepEqual(organization.team, { name: 'Deck Crew' });
    assert.equal(organization.missing, null);

    // Outsiders see the organization and its public face, not that they belong.
    const outside = await gql(t, bob.token)<{ organization: { viewerIsAMember: boolean; viewerCanAdminister: boolean } }>(
      `{ organization(login: "${org.login}") { viewerIsAMember viewerCanAdminister } }`);
    assert.deepEqual(outside.organization, { viewerIsAMember: false, viewerCanAdminister: false });
    const { errors } = await graphqlErrors(gql(t, bob.token)('{ organization(login: "no-such-org") { login } }'));
    assert.equal(errors[0]!.type, 'NOT_FOUND');
    assert.equal(errors[0]!.message, "Could not resolve to an Organization with the login of 'no-such-org'.");
  });

  test('repository(owner:, name:) agrees with GET /repos/{owner}/{repo}', async () => {
    const { data: rest } = await t.octokit(alice.token).rest.repos.get({ owner: alice.login, repo: 'pier' });
    const { repository: r } = await gql(t, alice.token)<{ repository: Record<string, unknown> }>(`{
      repository(owner: "${alice.login}", name: "pier") {
        __typename id databaseId name nameWithOwner description url resourcePath sshUrl homepageUrl
        isPrivate isFork isArchived isTemplate isDisabled isEmpty isInOrganization visibility
        createdAt updatedAt pushedAt diskUsage stargazerCount forkCount
        hasIssuesEnabled hasWikiEnabled hasProjectsEnabled forkingAllowed
        mergeCommitAllowed squashMergeAllowed rebaseMergeAllowed deleteBranchOnMerge squashMergeCommitTitle mergeCommitMessage
        viewerPermission viewerCanAdminister viewerHasStarred viewerSubscription viewerCanSubscribe
        owner { __typename login id } parent { name } templateRepository { name }
        licenseInfo { key name spdxId url id pseudoLicense featured permissions { key label } }
        primaryLanguage { name }
      }
    }`);
    assert.deepEqual(r, {
      __typename: 'Repository', id: rest.node_id, databaseId: rest.id, name: 'pier', nameWithOwner: rest.full_name, description: 'A pier',
      url: rest.html_url, resourcePath: `/${rest.full_name}`, sshUrl: rest.ssh_url, homepageUrl: rest.homepage,
      isPrivate: false, isFork: false, isArchived: false, isTemplate: false, isDisabled: false, isEmpty: false, isInOrganization: false, visibility: 'PUBLIC',
      createdAt: rest.created_at, updatedAt: rest.updated_at, pushedAt: rest.pushed_at, diskUsage: rest.size,
      stargazerCount: rest.stargazers_count, forkCount: rest.forks_count,
      hasIssuesEnabled: rest.has_issues, hasWikiEnabled: rest.has_wiki, hasProjectsEnabled: rest.has_projects, forkingAllowed: rest.allow_forking,
      mergeCommitAllowed: rest.allow_merge_commit, squashMergeAllowed: rest.allow_squash_merge, rebaseMergeAllowed: rest.allow_rebase_merge,
      deleteBranchOnMerge: rest.delete_branch_on_merge, squashMergeCommitTitle: rest.squash_merge_commit_title, mergeCommitMessage: rest.merge_commit_message,
      viewerPermission: 'ADMIN', viewerCanAdminister: true, viewerHasStarred: false, viewerSubscription: 'SUBSCRIBED', viewerCanSubscribe: true,
      owner: { __typename: 'User', login: alice.login, id: rest.owner.node_id }, parent: null, templateRepository: null,
      licenseInfo: {
        key: 'mit', name: rest.license!.name, spdxId: rest.license!.spdx_id, url: r.licenseInfo && (r.licenseInfo as { url: string }).url,
        id: rest.license!.node_id, pseudoLicense: false, featured: true,
        permissions: [{ key: 'commercial-use', label: 'Commercial use' }, { key: 'modifications', label: 'Modification' }, { key: 'distribution', label: 'Distribution' }, { key: 'private-use', label: 'Private use' }],
      },
      primaryLanguage: null,
    });
  });

  test('private repositories: hidden from others and from tokens without repo, as on REST', async () => {
    const q = `{ repository(owner: "${alice.login}", name: "vault") { name isPrivate visibility } }`;
    assert.deepEqual(await gql(t, alice.token)(q), { repository: { name: 'vault', isPrivate: true, visibility: 'PRIVATE' } });
    const { errors } = await graphqlErrors(gql(t, bob.token)(q));
    assert.deepEqual(errors.map((e) => [e.type, e.message]), [['NOT_FOUND', `Could not resolve to a Repository with the name '${alice.login}/vault'.`]]);
    // A token of the owner without repo sees only public repositories.
    const { data: auth } = await t.octokit(ADMIN_TOKEN).request('POST /admin/users/{username}/authorizations', { username: alice.login, scopes: ['public_repo'] });
    const narrow = await graphqlErrors(gql(t, (auth as { token: string }).token)(q));
    assert.equal(narrow.errors[0]!.type, 'NOT_FOUND');
    // The lists leave it out the same way.
    const listed = await gql(t, bob.token)<{ user: { repositories: { totalCount: number; nodes: { name: string }[] } } }>(
      `{ user(login: "${alice.login}") { repositories(first: 10) { totalCount nodes { name } } } }`);
    assert.deepEqual(listed.user.repositories, { totalCount: 1, nodes: [{ name: 'pier' }] });
  });

  test('repositoryOwner(login:) is a User or an Organization, null for nobody; owners list their repositories', async () => {
    const { user, orgOwner, nobody } = await gql(t, bob.token)<{ user: { __typename: string; login: string }; orgOwner: { __typename: string; repositories: { nodes: { name: string; owner: { login: string } }[] }; repository: { name: string } }; nobody: null }>(`{
      user: repositoryOwner(login: "${alice.login}") { __typename login }
      orgOwner: repositoryOwner(login: "${org.login}") { __typename repositories(first: 5) { nodes { name owner { login } } } repository(name: "fleet") { name } }
      nobody: repositoryOwner(login: "no-such-account") { login }
    }`);
    assert.deepEqual(user, { __typename: 'User', login: alice.login });
    assert.equal(orgOwner.__typename, 'Organization');
    assert.deepEqual(orgOwner.repositories.nodes, [{ name: 'fleet', owner: { login: org.login } }]);
    assert.deepEqual(orgOwner.repository, { name: 'fleet' });
    assert.equal(nobody, null);
  });

  test('pagination both ways with opaque cursors, and the same order as REST', async () => {
    const carol = await createUser(t);
    const names = ['a1', 'b2', 'c3', 'd4', 'e5'];
    for (const name of names) await t.octokit(carol.token).rest.repos.createForAuthenticatedUser({ name });
    type Conn = { viewer: { repositories: Page<{ name: string }> } };
    const page = (args: string) => gql(t, carol.token)<Conn>(`{ viewer { repositories(${args}, orderBy: {field: NAME, direction: ASC}) {
      totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { name } } nodes { name } } } }`);

    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const { viewer }: Conn = await page(`first: 2${after ? `, after: "${after}"` : ''}`);
      const c = viewer.repositories;
      assert.equal(c.totalCount, 5);
      assert.deepEqual(c.nodes, c.edges.map((e) => e.node));
      assert.equal(c.pageInfo.startCursor, c.edges[0]!.cursor);
      assert.equal(c.pageInfo.endCursor, c.edges[c.edges.length - 1]!.cursor);
      assert.equal(c.pageInfo.hasPreviousPage, pages > 0);
      seen.push(...c.nodes.map((n) => n.name));
      pages += 1;
      if (!c.pageInfo.hasNextPage) break;
      after = c.pageInfo.endCursor;
    }
    assert.deepEqual(seen, names);
    assert.equal(pages, 3);
    const { data: rest } = await t.octokit(carol.token).rest.repos.listForAuthenticatedUser({ sort: 'full_name', direction: 'asc' });
    assert.deepEqual(rest.map((r) => r.name), seen);

    // Backwards: the last two, then the two before them.
    const last = (await page('last: 2')).viewer.repositories;
    assert.deepEqual(last.nodes.map((n) => n.name), ['d4', 'e5']);
    assert.deepEqual([last.pageInfo.hasPreviousPage, last.pageInfo.hasNextPage], [true, false]);
    const before = (await page(`last: 2, before: "${last.pageInfo.startCursor}"`)).viewer.repositories;
    assert.deepEqual(before.nodes.map((n) => n.name), ['b2', 'c3']);
    assert.deepEqual([before.pageInfo.hasPreviousPage, before.pageInfo.hasNextPage], [true, true]);
    // A window between two cursors.
    const first = (await page('first: 1')).viewer.repositories;
    const between = (await page(`first: 10, after: "${first.pageInfo.endCursor}", before: "${last.pageInfo.startCursor}"`)).viewer.repositories;
    assert.deepEqual(between.nodes.map((n) => n.name), ['b2', 'c3']);
    // Cursors are opaque strings; a made-up one is refused.
    assert.doesNotMatch(first.pageInfo.endCursor!, /^\d+$/);
    const bad = await graphqlErrors(gql(t, carol.token)('{ viewer { repositories(first: 1, after: "bogus") { nodes { name } } } }'));
    assert.equal(bad.errors[0]!.type, 'INVALID_CURSOR_ARGUMENTS');
  });

  test('stars, watchers, forks and collaborators as connections', async () => {
    await t.octokit(bob.token).rest.activity.starRepoForAuthenticatedUser({ owner: alice.login, repo: 'pier' });
    await t.octokit(bob.token).rest.activity.setRepoSubscription({ owner: alice.login, repo: 'pier', subscribed: true });
    await t.octokit(bob.token).rest.repos.createFork({ owner: alice.login, repo: 'pier' });
    const { repository: r } = await gql(t, alice.token)<{ repository: {
      stargazerCount: number; forkCount: number;
      stargazers: { totalCount: number; edges: { starredAt: string; node: { login: string } }[] };
      watchers: { totalCount: number; nodes: { login: string }[] };
      forks: { totalCount: number; nodes: { nameWithOwner: string; isFork: boolean; parent: { nameWithOwner: string } }[] };
      collaborators: { totalCount: number; edges: { permission: string; node: { login: string } }[] };
    } }>(`{ repository(owner: "${alice.login}", name: "pier") {
      stargazerCount forkCount
      stargazers(first: 10) { totalCount edges { starredAt node { login } } }
      watchers(first: 10) { totalCount nodes { login } }
      forks(first: 10) { totalCount nodes { nameWithOwner isFork parent { nameWithOwner } } }
      collaborators(first: 10) { totalCount edges { permission node { login } } }
    } }`);
    assert.equal(r.stargazerCount, 1);
    assert.equal(r.forkCount, 1);
    assert.equal(r.stargazers.edges[0]!.node.login, bob.login);
    assert.match(r.stargazers.edges[0]!.starredAt, /Z$/);
    assert.deepEqual(r.watchers.nodes.map((n) => n.login).sort(), [alice.login, bob.login].sort());
    assert.deepEqual(r.forks.nodes, [{ nameWithOwner: `${bob.login}/pier`, isFork: true, parent: { nameWithOwner: `${alice.login}/pier` } }]);
    const { data: restCollaborators } = await t.octokit(alice.token).rest.repos.listCollaborators({ owner: alice.login, repo: 'pier' });
    assert.equal(r.collaborators.totalCount, restCollaborators.length);
    assert.deepEqual(r.collaborators.edges.find((e) => e.node.login === alice.login)!.permission, 'ADMIN');

    const { viewer } = await gql(t, bob.token)<{ viewer: { starredRepositories: { totalCount: number; isOverLimit: boolean; edges: { starredAt: string; node: { name: string; viewerHasStarred: boolean } }[] }; watching: { nodes: { nameWithOwner: string }[] } } }>(`{
      viewer { starredRepositories(first: 5) { totalCount isOverLimit edges { starredAt node { name viewerHasStarred } } } watching(first: 10) { nodes { nameWithOwner } } } }`);
    assert.equal(viewer.starredRepositories.totalCount, 1);
    assert.equal(viewer.starredRepositories.isOverLimit, false);
    assert.deepEqual(viewer.starredRepositories.edges[0]!.node, { name: 'pier', viewerHasStarred: true });
    assert.equal(viewer.starredRepositories.edges[0]!.starredAt, r.stargazers.edges[0]!.starredAt);
    assert.ok(viewer.watching.nodes.some((n) => n.nameWithOwner === `${alice.login}/pier`));

    // Reading collaborators takes push access, as on REST.
    const { errors } = await graphqlErrors(gql(t, bob.token)(`{ repository(owner: "${alice.login}", name: "pier") { collaborators(first: 5) { totalCount } } }`));
    assert.equal(errors[0]!.type, 'FORBIDDEN');
    assert.deepEqual(errors[0]!.path, ['repository', 'collaborators']);
  });

  test('node(id:) and nodes(ids:) resolve the very node_id REST shows', async () => {
    const { data: user } = await t.octokit(bob.token).rest.users.getByUsername({ username: alice.login });
    const { data: repo } = await t.octokit(bob.token).rest.repos.get({ owner: alice.login, repo: 'pier' });
    const { data: restOrg } = await t.octokit(bob.token).rest.orgs.get({ org: org.login });
    const { data: restTeam } = await t.octokit(org.owner.token).rest.teams.getByName({ org: org.login, team_slug: team.slug });
    const { data: license } = await t.octokit(bob.token).rest.licenses.get({ license: 'mit' });
    const { node } = await gql(t, bob.token)<{ node: { __typename: string; id: string; nameWithOwner: string } }>(
      'query($id: ID!) { node(id: $id) { __typename id ... on Repository { nameWithOwner } } }', { id: repo.node_id });
    assert.deepEqual(node, { __typename: 'Repository', id: repo.node_id, nameWithOwner: repo.full_name });

    const { nodes } = await gql(t, org.owner.token)<{ nodes: ({ __typename: string; id: string } | null)[] }>(
      'query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }', { ids: [user.node_id, restOrg.node_id, restTeam.node_id, license.node_id] });
    assert.deepEqual(nodes, [
      { __typename: 'User', id: user.node_id }, { __typename: 'Organization', id: restOrg.node_id },
      { __typename: 'Team', id: restTeam.node_id }, { __typename: 'License', id: license.node_id },
    ]);

    // Unknown ids, and a private repository's id for someone who may not see it: null with NOT_FOUND each.
    const { data: vault } = await t.octokit(alice.token).rest.repos.get({ owner: alice.login, repo: 'vault' });
    const res = await postGraphQL<{ nodes: unknown[] }>(t, bob.token, { query: 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', variables: { ids: [repo.node_id, 'bm9wZQ==', vault.node_id] } });
    assert.deepEqual(res.body.data, { nodes: [{ id: repo.node_id }, null, null] });
    assert.deepEqual(res.body.errors!.map((e) => [e.type, e.path, e.message]), [
      ['NOT_FOUND', ['nodes', 1], "Could not resolve to a node with the global id of 'bm9wZQ=='."],
      ['NOT_FOUND', ['nodes', 2], `Could not resolve to a node with the global id of '${vault.node_id}'.`],
    ]);
  });

  test('search for repositories and users, with qualifiers', async () => {
    type Search = { search: { repositoryCount: number; userCount: number; issueCount: number; nodes: { __typename: string; nameWithOwner?: string; login?: string }[] } };
    const run = (token: string, query: string, type: string) =>
      gql(t, token)<Search>('query($q: String!, $type: SearchType!) { search(query: $q, type: $type, first: 20) { repositoryCount userCount issueCount nodes { __typename ... on Repository { nameWithOwner } ... on User { login } ... on Organization { login } } } }', { q: query, type });
    const pier = await run(bob.token, `pier user:${alice.login}`, 'REPOSITORY');
    assert.deepEqual(pier.search.nodes, [{ __typename: 'Repository', nameWithOwner: `${alice.login}/pier` }]);
    assert.equal(pier.search.repositoryCount, 1);
    assert.equal(pier.search.userCount, 0);
    // Forks only with fork:true; the private repository only for those who may see it.
    const withForks = await run(bob.token, 'pier fork:true', 'REPOSITORY');
    assert.deepEqual(withForks.search.nodes.map((n) => n.nameWithOwner).sort(), [`${alice.login}/pier`, `${bob.login}/pier`].sort());
    assert.equal((await run(bob.token, `vault user:${alice.login}`, 'REPOSITORY')).search.repositoryCount, 0);
    const mine = await run(alice.token, `vault user:${alice.login} is:private`, 'REPOSITORY');
    assert.deepEqual(mine.search.nodes, [{ __typename: 'Repository', nameWithOwner: `${alice.login}/vault` }]);
    assert.equal((await run(alice.token, 'A pier in:description', 'REPOSITORY')).search.repositoryCount, 1);
    // Users and organizations.
    const users = await run(bob.token, alice.login, 'USER');
    assert.ok(users.search.nodes.some((n) => n.__typename === 'User' && n.login === alice.login));
    const orgs = await run(bob.token, `${org.login} type:org`, 'USER');
    assert.deepEqual(orgs.search.nodes, [{ __typename: 'Organization', login: org.login }]);
    assert.equal(orgs.search.userCount, 1);
    // An owner qualifier naming nobody is refused, as upstream does.
    const { errors } = await graphqlErrors(run(bob.token, 'x user:no-such-user-here', 'REPOSITORY'));
    assert.equal(errors[0]!.type, 'UNPROCESSABLE');
  });

  test('meta, license and licenses', async () => {
    const r = await gql(t, bob.token)<{ meta: { gitHubServicesSha: string; isPasswordAuthenticationVerifiable: boolean; hookIpAddresses: string[] }; license: { key: string; spdxId: string; body: string; conditions: { key: string }[] }; nope: null; licenses: { key: string }[] }>(
      '{ meta { gitHubServicesSha isPasswordAuthenticationVerifiable hookIpAddresses } license(key: "mit") { key spdxId body conditions { key } } nope: license(key: "no-such") { key } licenses { key } }');
    assert.match(r.meta.gitHubServicesSha, /^[0-9a-f]{40}$/);
    assert.equal(r.meta.isPasswordAuthenticationVerifiable, false);
    const { data: restMeta } = await t.octokit(bob.token).rest.meta.get();
    assert.deepEqual(r.meta.hookIpAddresses, restMeta.hooks);
    assert.equal(r.license.spdxId, 'MIT');
    assert.match(r.license.body, /Permission is hereby granted/);
    assert.deepEqual(r.license.conditions, [{ key: 'include-copyright' }]);
    assert.equal(r.nope, null);
    const { data: restLicenses } = await t.octokit(bob.token).rest.licenses.getAllCommonlyUsed();
    for (const l of restLicenses) assert.ok(r.licenses.some((x) => x.key === l.key), l.key);
  });

  test('createRepository calls the same service as REST: the repository, its event, ownerId and teamId', async () => {
    const { data: restOrg } = await t.octokit(org.owner.token).rest.orgs.get({ org: org.login });
    const { data: restTeam } = await t.octokit(org.owner.token).rest.teams.getByName({ org: org.login, team_slug: team.slug });
    const r = await gql(t, org.owner.token)<{ createRepository: { clientMutationId: string; repository: { name: string; nameWithOwner: string; visibility: string; isTemplate: boolean; hasIssuesEnabled: boolean; hasWikiEnabled: boolean; homepageUrl: string; description: string; owner: { login: string } } } }>(`
      mutation($input: CreateRepositoryInput!) {
        createRepository(input: $input) { clientMutationId repository { name nameWithOwner visibility isTemplate hasIssuesEnabled hasWikiEnabled homepageUrl description owner { login } } }
      }`, { input: {
      clientMutationId: 'launch-1', name: 'cutter', ownerId: restOrg.node_id, teamId: restTeam.node_id, visibility: 'PRIVATE',
      template: true, hasWikiEnabled: true, homepageUrl: 'https://example.com/cutter', description: 'A fast boat',
    } });
    assert.deepEqual(r.createRepository, {
      clientMutationId: 'launch-1',
      repository: { name: 'cutter', nameWithOwner: `${org.login}/cutter`, visibility: 'PRIVATE', isTemplate: true, hasIssuesEnabled: true, hasWikiEnabled: true, homepageUrl: 'https://example.com/cutter', description: 'A fast boat', owner: { login: org.login } },
    });
    const { data: rest } = await t.octokit(org.owner.token).rest.repos.get({ owner: org.login, repo: 'cutter' });
    assert.equal(rest.private, true);
    assert.equal(rest.description, 'A fast boat');
    const events = await listEvents(t.server.ctx, { event: 'repository', repositoryId: rest.id });
    assert.deepEqual(events.map((e) => e.action), ['created']);
    // teamId reaches the service: a team of another organization is refused.
    const other = await createOrgWithOwner(t);
    const { data: otherTeam } = await t.octokit(other.owner.token).rest.teams.create({ org: other.login, name: 'elsewhere' });
    const wrongTeam = await graphqlErrors(gql(t, org.owner.token)(`mutation { createRepository(input: {name: "dinghy", visibility: PRIVATE, ownerId: "${restOrg.node_id}", teamId: "${otherTeam.node_id}"}) { repository { name } } }`));
    assert.equal(wrongTeam.errors[0]!.type, 'UNPROCESSABLE');
    assert.match(wrongTeam.errors[0]!.message, /is not a team of this organization/);

    // Without ownerId it is the viewer's; a taken name is UNPROCESSABLE, and nothing is made.
    const mine = await gql(t, bob.token)<{ createRepository: { repository: { nameWithOwner: string } } }>('mutation { createRepository(input: {name: "skiff", visibility: PUBLIC}) { repository { nameWithOwner } } }');
    assert.equal(mine.createRepository.repository.nameWithOwner, `${bob.login}/skiff`);
    const { errors, data } = await graphqlErrors(gql(t, bob.token)('mutation { createRepository(input: {name: "skiff", visibility: PUBLIC}) { repository { name } } }'));
    assert.deepEqual(data, { createRepository: null });
    assert.equal(errors[0]!.type, 'UNPROCESSABLE');
    assert.deepEqual(errors[0]!.path, ['createRepository']);
    assert.match(errors[0]!.message, /name already exists on this account/);
    // Someone else's account is not an owner bob may create in.
    const notMine = await graphqlErrors(gql(t, bob.token)(`mutation { createRepository(input: {name: "x", visibility: PUBLIC, ownerId: "${restOrg.node_id}"}) { repository { name } } }`));
    assert.equal(notMine.errors[0]!.type, 'NOT_FOUND');
  });

  test('a renamed repository is found under its old name unless followRenames is false', async () => {
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'old-name' });
    await t.octokit(alice.token).rest.repos.update({ owner: alice.login, repo: 'old-name', name: 'new-name' });
    const followed = await gql(t, alice.token)<{ repository: { name: string } }>(`{ repository(owner: "${alice.login}", name: "old-name") { name } }`);
    assert.deepEqual(followed, { repository: { name: 'new-name' } });
    const { errors } = await graphqlErrors(gql(t, alice.token)(`{ repository(owner: "${alice.login}", name: "old-name", followRenames: false) { name } }`));
    assert.equal(errors[0]!.type, 'NOT_FOUND');
  });
});
