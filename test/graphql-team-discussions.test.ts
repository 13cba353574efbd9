// Team discussions through GraphQL: Team.discussions and Team.discussion(number:),
// TeamDiscussion and TeamDiscussionComment with the values REST shows, private posts
// kept from those outside the team, node ids equal to REST's node_id, reactions, and
// the read:discussion scope.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Octokit } from '@octokit/rest';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './helpers/server.ts';
import type { CreatedUser } from './factories/accounts.ts';
import { addMember, createOrgWithOwner, createTeam, type CreatedOrg, type CreatedTeam } from './factories/orgs.ts';
import { gql, graphqlErrors } from './helpers/graphql.ts';

type Json = Record<string, any>;

// Octokit sends mediaType.previews only to GraphQL nowadays: the header is set by hand.
const PREVIEW = { headers: { accept: 'application/vnd.github.squirrel-girl-preview+json' } };
const DISCUSSIONS = '/orgs/{org}/teams/{team_slug}/discussions';
const OWNER_SCOPES = ['admin:org', 'write:discussion'];
const MEMBER_SCOPES = ['read:org', 'write:discussion'];

describe('GraphQL team discussions', () => {
  let t: TestServer;
  let org: CreatedOrg;
  let team: CreatedTeam;
  let member: CreatedUser;
  let outsider: CreatedUser;
  const posts: Json[] = [];
  const comments: Json[] = [];

  const rest = (kit: Octokit) => ({
    create: (body: Json) => kit.request(`POST ${DISCUSSIONS}`, { org: org.login, team_slug: team.slug, ...PREVIEW, ...body }),
    comment: (n: number, body: string) => kit.request(`POST ${DISCUSSIONS}/{discussion_number}/comments`, { org: org.login, team_slug: team.slug, discussion_number: n, body, ...PREVIEW }),
    get: (n: number) => kit.request(`GET ${DISCUSSIONS}/{discussion_number}`, { org: org.login, team_slug: team.slug, discussion_number: n, ...PREVIEW }),
  });

  before(async () => {
    t = await startTestServer();
    org = await createOrgWithOwner(t, OWNER_SCOPES);
    // Closed: every member of the organization sees the team's page.
    team = await createTeam(t, org.owner.token, org.login, { privacy: 'closed' });
    member = await addMember(t, org, 'member', MEMBER_SCOPES);
    await t.octokit(org.owner.token).rest.teams.addOrUpdateMembershipForUserInOrg({ org: org.login, team_slug: team.slug, username: member.login });
    outsider = await addMember(t, org, 'member', MEMBER_SCOPES);
    const byMember = rest(t.octokit(member.token));
    posts.push((await byMember.create({ title: 'First', body: 'Hello **team**' })).data as Json);
    posts.push((await byMember.create({ title: 'Private', body: 'Only us', private: true })).data as Json);
    posts.push((await rest(t.octokit(outsider.token)).create({ title: 'Third', body: 'From outside the team' })).data as Json);
    for (const body of ['one', 'two', 'three']) comments.push((await byMember.comment(1, body)).data as Json);
    await t.octokit(member.token).request(`POST ${DISCUSSIONS}/{discussion_number}/reactions`, {
      org: org.login, team_slug: team.slug, discussion_number: 1, content: 'heart', ...PREVIEW,
    });
  });
  after(() => t.close());

  const teamQuery = (inner: string) => `{ organization(login: "${org.login}") { team(slug: "${team.slug}") { ${inner} } } }`;
  type TeamAnswer = { organization: { team: Json } };

  test('Team.discussions: newest first, or oldest first; private posts only for the team; pinned filter', async () => {
    const q = (args: string) => teamQuery(`discussions(${args}) { totalCount nodes { number title isPrivate isPinned } }`);
    const mine = (await gql(t, member.token)<TeamAnswer>(q('first: 10'))).organization.team.discussions;
    assert.equal(mine.totalCount, 3);
    assert.deepEqual(mine.nodes.map((n: Json) => n.title), ['Third', 'Private', 'First']);
    const asc = (await gql(t, member.token)<TeamAnswer>(q('first: 10, orderBy: {field: CREATED_AT, direction: ASC}'))).organization.team.discussions;
    assert.deepEqual(asc.nodes.map((n: Json) => n.number), [1, 2, 3]);
    const theirs = (await gql(t, outsider.token)<TeamAnswer>(q('first: 10'))).organization.team.discussions;
    assert.deepEqual([theirs.totalCount, theirs.nodes.map((n: Json) => n.title)], [2, ['Third', 'First']]);
    const pinned = (await gql(t, member.token)<TeamAnswer>(q('first: 10, isPinned: true'))).organization.team.discussions;
    assert.deepEqual(pinned, { totalCount: 0, nodes: [] });
    const unpinned = (await gql(t, member.token)<TeamAnswer>(q('first: 10, isPinned: false'))).organization.team.discussions;
    assert.equal(unpinned.totalCount, 3);
    // Pagination both ways.
    const page1 = (await gql(t, member.token)<TeamAnswer>(teamQuery('discussions(first: 2) { pageInfo { hasNextPage endCursor } nodes { number } }'))).organization.team.discussions;
    const page2 = (await gql(t, member.token)<TeamAnswer>(teamQuery(`discussions(first: 2, after: "${page1.pageInfo.endCursor}") { pageInfo { hasNextPage hasPreviousPage } nodes { number } }`))).organization.team.discussions;
    assert.deepEqual([page1.nodes, page1.pageInfo.hasNextPage, page2.nodes, page2.pageInfo], [[{ number: 3 }, { number: 2 }], true, [{ number: 1 }], { hasNextPage: false, hasPreviousPage: true }]);
    const last = (await gql(t, member.token)<TeamAnswer>(teamQuery('discussions(last: 1) { nodes { number } }'))).organization.team.discussions;
    assert.deepEqual(last.nodes, [{ number: 1 }]);
  });

  test('a discussion: the values REST shows, its comments, reactions and the viewer fields', async () => {
    const { data: r } = await rest(t.octokit(member.token)).get(1);
    const d = (await gql(t, member.token)<TeamAnswer>(teamQuery(`discussion(number: 1) {
      __typename id databaseId number title body bodyHTML bodyText bodyVersion isPinned isPrivate author { login } authorAssociation
      createdAt updatedAt lastEditedAt url resourcePath commentsUrl commentsResourcePath team { slug }
      viewerDidAuthor viewerCanUpdate viewerCanDelete viewerCanPin viewerCanReact viewerCannotUpdateReasons
      reactionGroups { content reactors { totalCount } }
      comments(first: 10) { totalCount nodes { id number body bodyHTML author { login } url discussion { number } } }
      fromTwo: comments(first: 10, fromComment: 2) { nodes { number } }
      desc: comments(first: 2, orderBy: {field: NUMBER, direction: DESC}) { nodes { number } } }`))).organization.team.discussion;
    const view = r as Json;
    assert.deepEqual({ ...d, reactionGroups: undefined, comments: undefined, fromTwo: undefined, desc: undefined }, {
      __typename: 'TeamDiscussion', id: view.node_id, databaseId: d.databaseId, number: 1, title: 'First', body: 'Hello **team**',
      bodyHTML: view.body_html, bodyText: 'Hello team', bodyVersion: view.body_version, isPinned: false, isPrivate: false,
      author: { login: member.login }, authorAssociation: 'MEMBER', createdAt: view.created_at, updatedAt: view.updated_at, lastEditedAt: null,
      url: view.html_url, resourcePath: `/orgs/${org.login}/teams/${team.slug}/discussions/1`, commentsUrl: `${view.html_url}/comments`,
      commentsResourcePath: `/orgs/${org.login}/teams/${team.slug}/discussions/1/comments`, team: { slug: team.slug },
      viewerDidAuthor: true, viewerCanUpdate: true, viewerCanDelete: true, viewerCanPin: false, viewerCanReact: true, viewerCannotUpdateReasons: [],
      reactionGroups: undefined, comments: undefined, fromTwo: undefined, desc: undefined,
    });
    assert.deepEqual(d.reactionGroups.find((g: Json) => g.content === 'HEART'), { content: 'HEART', reactors: { totalCount: 1 } });
    assert.equal(d.comments.totalCount, 3);
    assert.deepEqual(d.comments.nodes.map((c: Json) => [c.id, c.number, c.body, c.bodyHTML, c.author.login, c.url, c.discussion.number]),
      comments.map((c) => [c.node_id, c.number, c.body, c.body_html, member.login, c.html_url, 1]));
    assert.deepEqual(d.fromTwo.nodes, [{ number: 2 }, { number: 3 }]);
    assert.deepEqual(d.desc.nodes, [{ number: 3 }, { number: 2 }]);

    // The organization's owner moderates; another member only reads.
    const owner = (await gql(t, org.owner.token)<TeamAnswer>(teamQuery('discussion(number: 1) { viewerCanUpdate viewerCanPin viewerDidAuthor }'))).organization.team.discussion;
    assert.deepEqual(owner, { viewerCanUpdate: true, viewerCanPin: true, viewerDidAuthor: false });
    const other = (await gql(t, outsider.token)<TeamAnswer>(teamQuery('discussion(number: 1) { viewerCanUpdate viewerCannotUpdateReasons }'))).organization.team.discussion;
    assert.deepEqual(other, { viewerCanUpdate: false, viewerCannotUpdateReasons: ['INSUFFICIENT_ACCESS'] });
    // A private post is not there for them; nor is a number without a post.
    assert.equal((await gql(t, outsider.token)<TeamAnswer>(teamQuery('discussion(number: 2) { title }'))).organization.team.discussion, null);
    assert.equal((await gql(t, member.token)<TeamAnswer>(teamQuery('discussion(number: 99) { title }'))).organization.team.discussion, null);
  });

  test('node(id:) with REST node_ids; a private post is NOT_FOUND for those outside the team; addReaction reaches posts', async () => {
    const ids = [posts[0]!.node_id, comments[1]!.node_id, posts[1]!.node_id];
    const { nodes } = await gql(t, member.token)<{ nodes: Json[] }>(`query($ids: [ID!]!) { nodes(ids: $ids) { __typename id
      ... on TeamDiscussion { title } ... on TeamDiscussionComment { body discussion { title } } } }`, { ids });
    assert.deepEqual(nodes, [
      { __typename: 'TeamDiscussion', id: ids[0], title: 'First' },
      { __typename: 'TeamDiscussionComment', id: ids[1], body: 'two', discussion: { title: 'First' } },
      { __typename: 'TeamDiscussion', id: ids[2], title: 'Private' },
    ]);
    const { errors, data } = await graphqlErrors(gql(t, outsider.token)(`query($id: ID!) { node(id: $id) { id } }`, { id: posts[1]!.node_id }));
    assert.deepEqual(errors.map((e) => e.type), ['NOT_FOUND']);
    assert.deepEqual(data, { node: null });

    const reacted = await gql(t, outsider.token)<{ addReaction: { subject: Json } }>(`mutation($input: AddReactionInput!) {
      addReaction(input: $input) { subject { __typename id ... on TeamDiscussionComment { reactionGroups { content viewerHasReacted } } } } }`,
    { input: { subjectId: comments[0]!.node_id, content: 'ROCKET' } });
    assert.equal(reacted.addReaction.subject.id, comments[0]!.node_id);
    assert.deepEqual(reacted.addReaction.subject.reactionGroups.find((g: Json) => g.content === 'ROCKET'), { content: 'ROCKET', viewerHasReacted: true });
    const { data: restReactions } = await t.octokit(member.token).request(`GET ${DISCUSSIONS}/{discussion_number}/comments/{comment_number}/reactions`, {
      org: org.login, team_slug: team.slug, discussion_number: 1, comment_number: 1, ...PREVIEW,
    });
    assert.deepEqual((restReactions as Json[]).map((x) => [x.content, x.user.login]), [['rocket', outsider.login]]);
  });

  test('without read:discussion the discussions are refused, naming the scope', async () => {
    const { data: auth } = await t.octokit(ADMIN_TOKEN).request('POST /admin/users/{username}/authorizations', { username: member.login, scopes: ['read:org'] });
    const narrow = (auth as { token: string }).token;
    const { errors } = await graphqlErrors(gql(t, narrow)(teamQuery('discussions(first: 5) { totalCount }')));
    assert.deepEqual(errors.map((e) => e.type), ['INSUFFICIENT_SCOPES']);
    assert.match(errors[0]!.message, /The 'discussions' field requires one of the following scopes: \['read:discussion'\]/);
    const byNode = await graphqlErrors(gql(t, narrow)(`query($id: ID!) { node(id: $id) { ... on TeamDiscussion { title } } }`, { id: posts[0]!.node_id }));
    assert.deepEqual(byNode.errors.map((e) => e.type), ['INSUFFICIENT_SCOPES']);
  });
});
