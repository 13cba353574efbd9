// Reactions through GraphQL: addReaction (the spec's example) and removeReaction on the
// reactions service REST uses, reactionGroups and reactions of issues, comments,
// pull requests and releases, Reaction ids equal to REST's node_id, and their errors and scopes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createIssue, createRepo, type CreatedRepo } from './factories/issues.ts';
import { gql, graphqlErrors, postGraphQL } from './helpers/graphql.ts';

interface Group { content: string; createdAt: string | null; viewerHasReacted: boolean; users: { totalCount: number }; reactors: { totalCount: number; nodes: { login: string }[] } }

describe('GraphQL reactions', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let harbor: CreatedRepo;
  let vault: CreatedRepo;

  const rest = (u: CreatedUser) => t.octokit(u.token).rest;
  const q = <T>(u: CreatedUser, query: string, variables: Record<string, unknown> = {}) => gql(t, u.token)<T>(query, variables);

  const GROUPS = 'reactionGroups { content createdAt viewerHasReacted users(first: 5) { totalCount } reactors(first: 5) { totalCount nodes { ... on User { login } } } }';

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    bob = await createUser(t);
    harbor = await createRepo(t, alice, { name: 'harbor' });
    vault = await createRepo(t, alice, { name: 'vault', private: true });
  });
  after(() => t.close());

  test('addReaction as the spec shows it, then read through REST and GraphQL', async () => {
    const issue = await createIssue(t, alice.token, harbor, { title: 'React to me' });
    const added = await q<{ addReaction: { clientMutationId: string; reaction: { content: string; id: string; databaseId: number; user: { login: string } }; subject: { id: string }; reactionGroups: Group[] } }>(bob, `
      mutation AddReactionToIssue($id: ID!) {
        addReaction(input: {subjectId: $id, content: HOORAY, clientMutationId: "r1"}) {
          clientMutationId
          reaction { content id databaseId user { login } }
          subject { id }
          ${GROUPS}
        }
      }`, { id: issue.node_id });
    const a = added.addReaction;
    assert.equal(a.clientMutationId, 'r1');
    assert.equal(a.reaction.content, 'HOORAY');
    assert.equal(a.subject.id, issue.node_id);
    assert.equal(a.reaction.user.login, bob.login);
    const hooray = a.reactionGroups.find((g) => g.content === 'HOORAY')!;
    assert.equal(hooray.viewerHasReacted, true);
    assert.equal(hooray.users.totalCount, 1);
    assert.deepEqual(hooray.reactors.nodes, [{ login: bob.login }]);
    assert.deepEqual(a.reactionGroups.map((g) => g.content), ['THUMBS_UP', 'THUMBS_DOWN', 'LAUGH', 'HOORAY', 'CONFUSED', 'HEART', 'ROCKET', 'EYES']);
    assert.ok(a.reactionGroups.filter((g) => g.content !== 'HOORAY').every((g) => g.users.totalCount === 0 && g.createdAt === null));

    const { data: listed } = await rest(alice).reactions.listForIssue({ owner: harbor.owner, repo: harbor.repo, issue_number: issue.number });
    assert.deepEqual(listed.map((r) => ({ id: r.node_id, databaseId: r.id, content: r.content, user: r.user!.login })),
      [{ id: a.reaction.id, databaseId: a.reaction.databaseId, content: 'hooray', user: bob.login }]);
    assert.equal(hooray.createdAt, listed[0]!.created_at);
    const { data: restIssue } = await rest(alice).issues.get({ owner: harbor.owner, repo: harbor.repo, issue_number: issue.number });
    assert.equal(restIssue.reactions!.hooray, 1);

    // Reacting again answers the same reaction; REST's answer is 200 then.
    const again = await q<{ addReaction: { reaction: { id: string } } }>(bob, `mutation($id: ID!) { addReaction(input: {subjectId: $id, content: HOORAY}) { reaction { id } } }`, { id: issue.node_id });
    assert.equal(again.addReaction.reaction.id, a.reaction.id);
    const viaRest = await rest(bob).reactions.createForIssue({ owner: harbor.owner, repo: harbor.repo, issue_number: issue.number, content: 'hooray' });
    assert.equal(viaRest.status, 200);
    assert.equal(viaRest.data.node_id, a.reaction.id);

    // Made through REST, seen through GraphQL, from another viewer.
    await rest(alice).reactions.createForIssue({ owner: harbor.owner, repo: harbor.repo, issue_number: issue.number, content: '+1' });
    await rest(alice).reactions.createForIssue({ owner: harbor.owner, repo: harbor.repo, issue_number: issue.number, content: 'hooray' });
    const seen = await q<{ node: { reactionGroups: Group[]; reactions: { totalCount: number; viewerHasReacted: boolean; nodes: { content: string; user: { login: string } }[] };
      hoorays: { totalCount: number; nodes: { user: { login: string } }[] }; newest: { nodes: { content: string }[] }; hearts: { totalCount: number; viewerHasReacted: boolean } } }>(alice,
      `query($id: ID!) { node(id: $id) { ... on Issue { ${GROUPS}
        reactions(first: 10) { totalCount viewerHasReacted nodes { content user { login } } }
        hoorays: reactions(first: 10, content: HOORAY) { totalCount nodes { user { login } } }
        newest: reactions(first: 1, orderBy: {field: CREATED_AT, direction: DESC}) { nodes { content } }
        hearts: reactions(first: 1, content: HEART) { totalCount viewerHasReacted } } } }`, { id: issue.node_id });
    const groups = Object.fromEntries(seen.node.reactionGroups.map((g) => [g.content, g]));
    assert.equal(groups.HOORAY!.users.totalCount, 2);
    assert.equal(groups.HOORAY!.viewerHasReacted, true);
    assert.deepEqual(groups.HOORAY!.reactors.nodes.map((n) => n.login), [bob.login, alice.login]);
    assert.equal(groups.THUMBS_UP!.reactors.totalCount, 1);
    assert.equal(seen.node.reactions.totalCount, 3);
    assert.equal(seen.node.reactions.viewerHasReacted, true);
    assert.deepEqual(seen.node.reactions.nodes.map((r) => r.content), ['HOORAY', 'THUMBS_UP', 'HOORAY']);
    assert.deepEqual(seen.node.hoorays.nodes.map((r) => r.user.login), [bob.login, alice.login]);
    assert.deepEqual(seen.node.newest.nodes, [{ content: 'HOORAY' }]);
    assert.deepEqual(seen.node.hearts, { totalCount: 0, viewerHasReacted: false });
  });

  test('removeReaction removes the caller\'s own reaction, as REST\'s delete', async () => {
    const issue = await createIssue(t, alice.token, harbor, { title: 'Un-react' });
    const made = await q<{ addReaction: { reaction: { id: string } } }>(bob, `mutation($id: ID!) { addReaction(input: {subjectId: $id, content: EYES}) { reaction { id } } }`, { id: issue.node_id });
    await rest(alice).reactions.createForIssue({ owner: harbor.owner, repo: harbor.repo, issue_number: issue.number, content: 'eyes' });
    const removed = await q<{ removeReaction: { clientMutationId: string; reaction: { id: string; content: string }; subject: { id: string }; reactionGroups: Group[] } }>(bob,
      `mutation($id: ID!) { removeReaction(input: {subjectId: $id, content: EYES, clientMutationId: "x"}) { clientMutationId reaction { id content } subject { id } ${GROUPS} } }`, { id: issue.node_id });
    assert.equal(removed.removeReaction.clientMutationId, 'x');
    assert.deepEqual(removed.removeReaction.reaction, { id: made.addReaction.reaction.id, content: 'EYES' });
    const eyes = removed.removeReaction.reactionGroups.find((g) => g.content === 'EYES')!;
    assert.deepEqual([eyes.users.totalCount, eyes.viewerHasReacted], [1, false]);
    const { data: listed } = await rest(alice).reactions.listForIssue({ owner: harbor.owner, repo: harbor.repo, issue_number: issue.number });
    assert.deepEqual(listed.map((r) => r.user!.login), [alice.login]);
    // Nothing left to remove: no reaction in the payload, nothing else touched.
    const nothing = await q<{ removeReaction: { reaction: null } }>(bob, `mutation($id: ID!) { removeReaction(input: {subjectId: $id, content: EYES}) { reaction { id } } }`, { id: issue.node_id });
    assert.equal(nothing.removeReaction.reaction, null);
    assert.equal((await rest(alice).reactions.listForIssue({ owner: harbor.owner, repo: harbor.repo, issue_number: issue.number })).data.length, 1);
  });

  test('issue comments are reactable, and a Reaction resolves by its REST node_id', async () => {
    const issue = await createIssue(t, alice.token, harbor, { title: 'Comment reactions' });
    const { data: comment } = await rest(alice).issues.createComment({ owner: harbor.owner, repo: harbor.repo, issue_number: issue.number, body: 'hello' });
    const added = await q<{ addReaction: { reaction: { id: string }; subject: { __typename: string; id: string } } }>(bob,
      `mutation($id: ID!) { addReaction(input: {subjectId: $id, content: HEART}) { reaction { id } subject { __typename id } } }`, { id: comment.node_id });
    assert.deepEqual(added.addReaction.subject, { __typename: 'IssueComment', id: comment.node_id });
    const { data: listed } = await rest(alice).reactions.listForIssueComment({ owner: harbor.owner, repo: harbor.repo, comment_id: comment.id });
    assert.deepEqual(listed.map((r) => [r.node_id, r.content]), [[added.addReaction.reaction.id, 'heart']]);

    const node = await q<{ node: { __typename: string; content: string; createdAt: string; user: { login: string }; reactable: { __typename: string; id: string; viewerCanReact: boolean } } }>(alice,
      `query($id: ID!) { node(id: $id) { __typename ... on Reaction { content createdAt user { login } reactable { __typename id viewerCanReact } } } }`, { id: listed[0]!.node_id });
    assert.deepEqual(node.node, { __typename: 'Reaction', content: 'HEART', createdAt: listed[0]!.created_at, user: { login: bob.login },
      reactable: { __typename: 'IssueComment', id: comment.node_id, viewerCanReact: true } });
    const groups = await q<{ node: { reactionGroups: { content: string; subject: { id: string }; users: { totalCount: number } }[] } }>(alice,
      `query($id: ID!) { node(id: $id) { ... on IssueComment { reactionGroups { content subject { id } users { totalCount } } } } }`, { id: comment.node_id });
    const heart = groups.node.reactionGroups.find((g) => g.content === 'HEART')!;
    assert.deepEqual(heart, { content: 'HEART', subject: { id: comment.node_id }, users: { totalCount: 1 } });
  });

  test('pull requests react through their issue, as in REST', async () => {
    const { data: main } = await rest(alice).git.getRef({ owner: harbor.owner, repo: harbor.repo, ref: 'heads/main' });
    await rest(alice).git.createRef({ owner: harbor.owner, repo: harbor.repo, ref: 'refs/heads/wave', sha: main.object.sha });
    await rest(alice).repos.createOrUpdateFileContents({ owner: harbor.owner, repo: harbor.repo, path: 'wave.txt', message: 'Wave', content: Buffer.from('wave\n').toString('base64'), branch: 'wave' });
    const { data: pull } = await rest(alice).pulls.create({ owner: harbor.owner, repo: harbor.repo, head: 'wave', base: 'main', title: 'Waves' });
    const added = await q<{ addReaction: { subject: { __typename: string; id: string } } }>(bob,
      `mutation($id: ID!) { addReaction(input: {subjectId: $id, content: ROCKET}) { subject { __typename id } } }`, { id: pull.node_id });
    assert.deepEqual(added.addReaction.subject, { __typename: 'PullRequest', id: pull.node_id });
    const { data: listed } = await rest(alice).reactions.listForIssue({ owner: harbor.owner, repo: harbor.repo, issue_number: pull.number });
    assert.deepEqual(listed.map((r) => [r.content, r.user!.login]), [['rocket', bob.login]]);
    const node = await q<{ node: { reactable: { __typename: string; number: number } } }>(alice,
      `query($id: ID!) { node(id: $id) { ... on Reaction { reactable { __typename ... on PullRequest { number } } } } }`, { id: listed[0]!.node_id });
    assert.deepEqual(node.node.reactable, { __typename: 'PullRequest', number: pull.number });
  });

  test('releases are reactable: addReaction and removeReaction by the release\'s node id, reactionGroups and reactions as REST\'s release reactions; drafts hidden from readers', async () => {
    const { data: release } = await rest(alice).repos.createRelease({ owner: harbor.owner, repo: harbor.repo, tag_name: 'v-react', name: 'Reactable' });
    const added = await q<{ addReaction: { reaction: { id: string; content: string }; subject: { __typename: string; id: string }; reactionGroups: Group[] } }>(bob,
      `mutation($id: ID!) { addReaction(input: {subjectId: $id, content: ROCKET}) { reaction { id content } subject { __typename id } ${GROUPS} } }`, { id: release.node_id });
    assert.deepEqual(added.addReaction.subject, { __typename: 'Release', id: release.node_id });
    const rocket = added.addReaction.reactionGroups.find((g) => g.content === 'ROCKET')!;
    assert.deepEqual([rocket.users.totalCount, rocket.viewerHasReacted, rocket.reactors.nodes], [1, true, [{ login: bob.login }]]);
    // The same reaction in REST, and the release's rollup counts it.
    const { data: listed } = await rest(alice).reactions.listForRelease({ owner: harbor.owner, repo: harbor.repo, release_id: release.id });
    assert.deepEqual(listed.map((r) => [r.node_id, r.content, r.user!.login]), [[added.addReaction.reaction.id, 'rocket', bob.login]]);
    assert.equal((await rest(alice).repos.getRelease({ owner: harbor.owner, repo: harbor.repo, release_id: release.id })).data.reactions!.rocket, 1);
    // Made in REST, read in GraphQL: the release's reactionGroups, reactions and viewerCanReact; a Reaction's reactable is the release.
    await rest(alice).reactions.createForRelease({ owner: harbor.owner, repo: harbor.repo, release_id: release.id, content: 'heart' });
    const seen = await q<{ repository: { release: { viewerCanReact: boolean; reactionGroups: Group[]; reactions: { totalCount: number; viewerHasReacted: boolean; nodes: { content: string; user: { login: string } }[] } } } }>(alice,
      `query($o: String!, $r: String!) { repository(owner: $o, name: $r) { release(tagName: "v-react") { viewerCanReact ${GROUPS} reactions(first: 10) { totalCount viewerHasReacted nodes { content user { login } } } } } }`,
      { o: harbor.owner, r: harbor.repo });
    const rel = seen.repository.release;
    assert.equal(rel.viewerCanReact, true);
    assert.deepEqual(rel.reactions.nodes, [{ content: 'ROCKET', user: { login: bob.login } }, { content: 'HEART', user: { login: alice.login } }]);
    assert.deepEqual([rel.reactions.totalCount, rel.reactions.viewerHasReacted], [2, true]);
    assert.deepEqual(rel.reactionGroups.filter((g) => g.users.totalCount > 0).map((g) => [g.content, g.viewerHasReacted]), [['HEART', true], ['ROCKET', false]]);
    const node = await q<{ node: { reactable: { __typename: string; tagName: string } } }>(alice,
      `query($id: ID!) { node(id: $id) { ... on Reaction { reactable { __typename ... on Release { tagName } } } } }`, { id: listed[0]!.node_id });
    assert.deepEqual(node.node.reactable, { __typename: 'Release', tagName: 'v-react' });
    // A release takes what REST lets it take: no THUMBS_DOWN or CONFUSED (422 there, UNPROCESSABLE here), nothing made.
    const refused = await graphqlErrors(q(bob, `mutation($id: ID!) { addReaction(input: {subjectId: $id, content: THUMBS_DOWN}) { reaction { id } } }`, { id: release.node_id }));
    assert.equal(refused.errors[0]!.type, 'UNPROCESSABLE');
    const removed = await q<{ removeReaction: { reaction: { id: string } } }>(bob,
      `mutation($id: ID!) { removeReaction(input: {subjectId: $id, content: ROCKET}) { reaction { id } } }`, { id: release.node_id });
    assert.equal(removed.removeReaction.reaction.id, added.addReaction.reaction.id);
    assert.deepEqual((await rest(alice).reactions.listForRelease({ owner: harbor.owner, repo: harbor.repo, release_id: release.id })).data.map((r) => r.content), ['heart']);
    // A draft is not there for a reader: not found, nothing made.
    const { data: draft } = await rest(alice).repos.createRelease({ owner: harbor.owner, repo: harbor.repo, tag_name: 'v-draft', draft: true });
    const hidden = await graphqlErrors(q(bob, `mutation($id: ID!) { addReaction(input: {subjectId: $id, content: HEART}) { reaction { id } } }`, { id: draft.node_id }));
    assert.equal(hidden.errors[0]!.type, 'NOT_FOUND');
    assert.deepEqual((await rest(alice).reactions.listForRelease({ owner: harbor.owner, repo: harbor.repo, release_id: draft.id })).data, []);
  });

  test('errors: unknown and invisible subjects, archived repositories, scopes', async () => {
    const unknown = await graphqlErrors(q(bob, `mutation { addReaction(input: {subjectId: "bm9wZQ==", content: HEART}) { reaction { id } } }`));
    assert.deepEqual(unknown.errors.map((e) => ({ type: e.type, path: e.path, message: e.message })),
      [{ type: 'NOT_FOUND', path: ['addReaction'], message: 'Could not resolve to a node with the global id of \'bm9wZQ==\'.' }]);
    const secret = await createIssue(t, alice.token, vault, { title: 'Secret' });
    const hidden = await graphqlErrors(q(bob, `mutation($id: ID!) { addReaction(input: {subjectId: $id, content: HEART}) { reaction { id } } }`, { id: secret.node_id }));
    assert.equal(hidden.errors[0]!.type, 'NOT_FOUND');
    assert.equal((await rest(alice).reactions.listForIssue({ owner: vault.owner, repo: vault.repo, issue_number: secret.number })).data.length, 0);
    // A reaction on a private issue is not there for bob either.
    const { data: r } = await rest(alice).reactions.createForIssue({ owner: vault.owner, repo: vault.repo, issue_number: secret.number, content: 'laugh' });
    const hiddenReaction = await graphqlErrors(q(bob, `query($id: ID!) { node(id: $id) { id } }`, { id: r.node_id }));
    assert.equal(hiddenReaction.errors[0]!.type, 'NOT_FOUND');
    const bad = await graphqlErrors(q(bob, `mutation { addReaction(input: {subjectId: "x", content: SMILE}) { reaction { id } } }`));
    assert.match(bad.errors[0]!.message, /SMILE/);

    const sunk = await createRepo(t, alice, { name: 'sunk' });
    const old = await createIssue(t, alice.token, sunk, { title: 'Old' });
    await rest(alice).repos.update({ owner: sunk.owner, repo: sunk.repo, archived: true });
    const archived = await graphqlErrors(q(bob, `mutation($id: ID!) { addReaction(input: {subjectId: $id, content: HEART}) { reaction { id } } }`, { id: old.node_id }));
    assert.deepEqual(archived.errors.map((e) => ({ type: e.type, message: e.message })), [{ type: 'FORBIDDEN', message: 'Repository was archived so is read-only.' }]);
    const cannot = await q<{ node: { viewerCanReact: boolean } }>(bob, `query($id: ID!) { node(id: $id) { ... on Issue { viewerCanReact } } }`, { id: old.node_id });
    assert.equal(cannot.node.viewerCanReact, false);

    const reader = await createUser(t, ['read:user']);
    const issue = await createIssue(t, alice.token, harbor, { title: 'Scoped' });
    const answer = await postGraphQL(t, reader.token, { query: `mutation($id: ID!) { addReaction(input: {subjectId: $id, content: HEART}) { reaction { id } } }`, variables: { id: issue.node_id } });
    assert.equal(answer.body.errors![0]!.type, 'INSUFFICIENT_SCOPES');
    assert.match(answer.body.errors![0]!.message, /'addReaction' field requires one of the following scopes: \['public_repo', 'repo', 'write:discussion'\]/);
    // A token that may only write discussions passes the check but not the repository's own.
    const discussionsOnly = await createUser(t, ['write:discussion']);
    const refused = await graphqlErrors(q(discussionsOnly, `mutation($id: ID!) { addReaction(input: {subjectId: $id, content: HEART}) { reaction { id } } }`, { id: issue.node_id }));
    assert.equal(refused.errors[0]!.type, 'INSUFFICIENT_SCOPES');
    assert.equal((await rest(alice).reactions.listForIssue({ owner: harbor.owner, repo: harbor.repo, issue_number: issue.number })).data.length, 0);
  });
});
