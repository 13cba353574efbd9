// Issues through GraphQL: Issue, IssueComment, Label and Milestone with the same ids
// and values REST shows, the issue lists of repositories, labels, milestones and users
// (filters, orders, pagination both ways), ISSUE search, global ids, and the issue
// mutations, which go through the REST twins' services (so REST reads what GraphQL
// wrote, events are recorded, and permissions and scopes are the same).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { listEvents } from '../src/events/outbox.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addCollaborator, createIssue, createRepo, type CreatedRepo } from './factories/issues.ts';
import { gql, graphqlErrors, postGraphQL } from './helpers/graphql.ts';

interface PageInfo { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null }

describe('GraphQL issues', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let carol: CreatedUser;
  let harbor: CreatedRepo;
  let vault: CreatedRepo;
  let milestoneNumber: number;
  let milestoneNodeId: string;

  const rest = (u: CreatedUser) => t.octokit(u.token).rest;
  const q = <T>(u: CreatedUser, query: string, variables: Record<string, unknown> = {}) => gql(t, u.token)<T>(query, variables);

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    bob = await createUser(t);
    carol = await createUser(t);
    harbor = await createRepo(t, alice, { name: 'harbor' });
    vault = await createRepo(t, alice, { name: 'vault', private: true });
    await addCollaborator(t, alice.token, harbor, carol, 'push');
    const { data: m } = await rest(alice).issues.createMilestone({ owner: harbor.owner, repo: harbor.repo, title: 'v1', due_on: '2030-01-01T00:00:00Z' });
    milestoneNumber = m.number;
    milestoneNodeId = m.node_id;
    await rest(alice).issues.createLabel({ owner: harbor.owner, repo: harbor.repo, name: 'deck', color: '112233', description: 'On deck' });
  });
  after(() => t.close());

  test('an issue shows the values and ids REST shows', async () => {
    const made = await createIssue(t, alice.token, harbor, {
      title: 'Leaky <hull>', body: 'See #1 and @' + carol.login + '\n\n**bold**', labels: ['bug', 'deck'], assignees: [carol.login], milestone: milestoneNumber,
    });
    await rest(carol).issues.createComment({ owner: harbor.owner, repo: harbor.repo, issue_number: made.number, body: 'On it' });
    const { data: full } = await rest(bob).issues.get({ owner: harbor.owner, repo: harbor.repo, issue_number: made.number, mediaType: { format: 'full' } });
    const { repository: { issue } } = await q<{ repository: { issue: Record<string, unknown> & {
      labels: { totalCount: number; nodes: { id: string; name: string; color: string; description: string | null; isDefault: boolean }[] };
      assignees: { nodes: { id: string; login: string }[] }; milestone: { id: string; number: number; title: string; dueOn: string; state: string };
      author: { login: string }; comments: { totalCount: number; nodes: { id: string; body: string; author: { login: string } }[] };
      repository: { nameWithOwner: string };
    } } }>(bob, `query($n: Int!) { repository(owner: "${harbor.owner}", name: "${harbor.repo}") { issue(number: $n) {
      id databaseId number title titleHTML body bodyText bodyHTML state stateReason closed closedAt createdAt updatedAt publishedAt
      author { login } authorAssociation locked activeLockReason url resourcePath viewerDidAuthor viewerCanUpdate viewerCanReact
      viewerCanClose viewerCanReopen viewerCanDelete viewerCannotUpdateReasons createdViaEmail includesCreatedEdit lastEditedAt editor { login }
      labels(first: 10) { totalCount nodes { id name color description isDefault } }
      assignees(first: 10) { nodes { id login } }
      milestone { id number title dueOn state }
      comments(first: 10) { totalCount nodes { id body author { login } } }
      repository { nameWithOwner }
    } } }`, { n: made.number });
    assert.equal(issue.id, full.node_id);
    assert.equal(issue.databaseId, full.id);
    assert.equal(issue.number, full.number);
    assert.equal(issue.title, 'Leaky <hull>');
    assert.equal(issue.titleHTML, 'Leaky &#60;hull&#62;');
    assert.equal(issue.body, full.body);
    assert.equal(issue.bodyHTML, full.body_html);
    assert.equal(issue.bodyText, full.body_text);
    assert.equal(issue.state, 'OPEN');
    assert.equal(issue.stateReason, null);
    assert.equal(issue.closed, false);
    assert.equal(issue.closedAt, null);
    assert.equal(issue.createdAt, full.created_at);
    assert.equal(issue.updatedAt, full.updated_at);
    assert.equal(issue.publishedAt, full.created_at);
    assert.deepEqual(issue.author, { login: alice.login });
    assert.equal(issue.authorAssociation, full.author_association);
    assert.equal(issue.locked, false);
    assert.equal(issue.activeLockReason, null);
    assert.equal(issue.url, full.html_url);
    assert.equal(issue.resourcePath, new URL(full.html_url).pathname);
    assert.equal(issue.viewerDidAuthor, false);
    // bob may read a public repository's issue, react to it, but not edit it.
    assert.equal(issue.viewerCanUpdate, false);
    assert.deepEqual(issue.viewerCannotUpdateReasons, ['INSUFFICIENT_ACCESS']);
    assert.equal(issue.viewerCanReact, true);
    assert.equal(issue.viewerCanClose, false);
    assert.equal(issue.viewerCanReopen, false);
    assert.equal(issue.viewerCanDelete, false);
    assert.equal(issue.createdViaEmail, false);
    assert.equal(issue.includesCreatedEdit, false);
    assert.equal(issue.lastEditedAt, null);
    assert.equal(issue.editor, null);
    assert.equal(issue.labels.totalCount, 2);
    assert.deepEqual(issue.labels.nodes.map((l) => ({ id: l.id, name: l.name, color: l.color, description: l.description, isDefault: l.isDefault })).sort((a, b) => a.name.localeCompare(b.name)),
      full.labels.map((l) => (typeof l === 'string' ? assert.fail() : { id: l.node_id, name: l.name, color: l.color, description: l.description, isDefault: l.default })));
    assert.deepEqual(issue.assignees.nodes, full.assignees!.map((a) => ({ id: a.node_id, login: a.login })));
    assert.deepEqual(issue.milestone, { id: full.milestone!.node_id, number: milestoneNumber, title: 'v1', dueOn: full.milestone!.due_on, state: 'OPEN' });
    assert.equal(issue.comments.totalCount, 1);
    assert.deepEqual(issue.comments.nodes.map((c) => ({ body: c.body, author: c.author.login })), [{ body: 'On it', author: carol.login }]);
    assert.deepEqual(issue.repository, { nameWithOwner: `${harbor.owner}/${harbor.repo}` });

    // The author and collaborators may edit; the author sees it as theirs.
    const own = await q<{ repository: { issue: { viewerDidAuthor: boolean; viewerCanUpdate: boolean; viewerCanClose: boolean; authorAssociation: string } } }>(alice,
      `{ repository(owner: "${harbor.owner}", name: "${harbor.repo}") { issue(number: ${made.number}) { viewerDidAuthor viewerCanUpdate viewerCanClose authorAssociation } } }`);
    assert.deepEqual(own.repository.issue, { viewerDidAuthor: true, viewerCanUpdate: true, viewerCanClose: true, authorAssociation: 'OWNER' });
  });

  test('issue comments show what REST shows, and node(id:) reaches them', async () => {
    const issue = await createIssue(t, alice.token, harbor, { title: 'Comments' });
    const made = [];
    for (const body of ['first', 'second @' + alice.login, 'third']) {
      made.push((await rest(carol).issues.createComment({ owner: harbor.owner, repo: harbor.repo, issue_number: issue.number, body })).data);
    }
    const { data: fullList } = await rest(alice).issues.listComments({ owner: harbor.owner, repo: harbor.repo, issue_number: issue.number, mediaType: { format: 'full' } });
    const r = await q<{ repository: { issue: { comments: { totalCount: number; pageInfo: PageInfo; edges: { cursor: string; node: Record<string, unknown> & { issue: { number: number }; author: { login: string } } }[] } } } }>(alice,
      `{ repository(owner: "${harbor.owner}", name: "${harbor.repo}") { issue(number: ${issue.number}) { comments(first: 2) {
        totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
        edges { cursor node { id databaseId body bodyHTML bodyText author { login } authorAssociation createdAt updatedAt url resourcePath
          issue { number } repository { name } viewerDidAuthor viewerCanUpdate viewerCanDelete viewerCanReact viewerCannotUpdateReasons } } } } } }`);
    const c = r.repository.issue.comments;
    assert.equal(c.totalCount, 3);
    assert.equal(c.pageInfo.hasNextPage, true);
    assert.equal(c.pageInfo.hasPreviousPage, false);
    assert.deepEqual(c.edges.map((e) => e.node.id), made.slice(0, 2).map((m) => m.node_id));
    const second = c.edges[1]!.node;
    assert.equal(second.databaseId, made[1]!.id);
    assert.equal(second.body, fullList[1]!.body);
    assert.equal(second.bodyHTML, fullList[1]!.body_html);
    assert.equal(second.bodyText, fullList[1]!.body_text);
    assert.equal(second.url, fullList[1]!.html_url);
    assert.equal(second.createdAt, fullList[1]!.created_at);
    assert.equal(second.authorAssociation, 'COLLABORATOR');
    assert.deepEqual(second.issue, { number: issue.number });
    assert.equal(second.viewerDidAuthor, false);
    // The owner has push access: may edit and delete others' comments.
    assert.equal(second.viewerCanUpdate, true);
    assert.equal(second.viewerCanDelete, true);
    assert.deepEqual(second.viewerCannotUpdateReasons, []);

    const next = await q<{ repository: { issue: { comments: { nodes: { body: string }[]; pageInfo: PageInfo } } } }>(alice,
      `query($after: String) { repository(owner: "${harbor.owner}", name: "${harbor.repo}") { issue(number: ${issue.number}) {
        comments(first: 2, after: $after) { nodes { body } pageInfo { hasNextPage hasPreviousPage } } } } }`, { after: c.pageInfo.endCursor });
    assert.deepEqual(next.repository.issue.comments.nodes, [{ body: 'third' }]);
    assert.deepEqual(next.repository.issue.comments.pageInfo, { hasNextPage: false, hasPreviousPage: true });

    const byId = await q<{ node: { __typename: string; body: string; viewerCanUpdate: boolean } }>(bob, `query($id: ID!) { node(id: $id) { __typename ... on IssueComment { body viewerCanUpdate } } }`, { id: made[0]!.node_id });
    assert.deepEqual(byId.node, { __typename: 'IssueComment', body: 'first', viewerCanUpdate: false });
  });

  test('repository issues: states, labels, orders, filters and pagination both ways', async () => {
    const r = await createRepo(t, alice, { name: 'fleet' });
    await addCollaborator(t, alice.token, r, carol, 'push');
    await rest(alice).issues.createLabel({ owner: r.owner, repo: r.repo, name: 'sail', color: 'aaaaaa' });
    const { data: m } = await rest(alice).issues.createMilestone({ owner: r.owner, repo: r.repo, title: 'M' });
    const numbers: number[] = [];
    for (let i = 0; i < 7; i++) {
      const made = await createIssue(t, i % 2 ? carol.token : alice.token, r, {
        title: `Issue ${i}`, body: i === 3 ? `ping @${bob.login}` : 'plain',
        labels: i % 3 === 0 ? ['sail'] : i % 3 === 1 ? ['bug'] : [], assignees: i === 4 ? [carol.login] : [], milestone: i === 5 ? m.number : undefined,
      });
      numbers.push(made.number);
    }
    await rest(alice).issues.update({ owner: r.owner, repo: r.repo, issue_number: numbers[1]!, state: 'closed' });
    await rest(alice).issues.update({ owner: r.owner, repo: r.repo, issue_number: numbers[2]!, state: 'closed' });
    await rest(carol).issues.createComment({ owner: r.owner, repo: r.repo, issue_number: numbers[6]!, body: 'a' });
    await rest(carol).issues.createComment({ owner: r.owner, repo: r.repo, issue_number: numbers[6]!, body: 'b' });
    await rest(carol).issues.createComment({ owner: r.owner, repo: r.repo, issue_number: numbers[0]!, body: 'c' });

    const TYPES: Record<string, string> = { after: 'String', before: 'String', since: 'DateTime' };
    const declared = (v: Record<string, unknown>) => (Object.keys(v).length ? `(${Object.keys(v).map((k) => `$${k}: ${TYPES[k]}`).join(', ')})` : '');
    const list = async (args: string, variables: Record<string, unknown> = {}) => (await q<{ repository: { issues: { totalCount: number; nodes: { number: number }[]; pageInfo: PageInfo } } }>(alice,
      `query${declared(variables)} { repository(owner: "${r.owner}", name: "${r.repo}") { issues(${args}) { totalCount nodes { number } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`, variables)).repository.issues;
    const nums = (x: { nodes: { number: number }[] }) => x.nodes.map((n) => n.number);

    // Oldest first by default, as upstream; the REST list agrees on the set.
    const all = await list('first: 20');
    assert.deepEqual(nums(all), numbers);
    assert.equal(all.totalCount, 7);
    const { data: restAll } = await rest(alice).issues.listForRepo({ owner: r.owner, repo: r.repo, state: 'all', direction: 'asc' });
    assert.deepEqual(restAll.map((i) => i.number), numbers);

    assert.deepEqual(nums(await list('first: 20, states: [OPEN]')), [numbers[0], numbers[3], numbers[4], numbers[5], numbers[6]]);
    assert.deepEqual(nums(await list('first: 20, states: [CLOSED]')), [numbers[1], numbers[2]]);
    assert.deepEqual(nums(await list('first: 20, states: [OPEN, CLOSED]')), numbers);
    // labels: any of them (upstream's OR); filterBy.labels: all of them.
    assert.deepEqual(nums(await list('first: 20, labels: ["sail", "bug"]')), [numbers[0], numbers[1], numbers[3], numbers[4], numbers[6]]);
    assert.deepEqual(nums(await list('first: 20, labels: ["SAIL"]')), [numbers[0], numbers[3], numbers[6]]);
    assert.deepEqual(nums(await list('first: 20, filterBy: {labels: ["sail", "bug"]}')), []);
    assert.deepEqual(nums(await list('first: 20, orderBy: {field: CREATED_AT, direction: DESC}')), [...numbers].reverse());
    assert.deepEqual(nums(await list('first: 2, orderBy: {field: COMMENTS, direction: DESC}')), [numbers[6], numbers[0]]);
    // Timestamps have whole seconds: the order by update time is checked against REST's.
    const { data: restUpdated } = await rest(alice).issues.listForRepo({ owner: r.owner, repo: r.repo, state: 'all', sort: 'updated', direction: 'desc' });
    assert.deepEqual(nums(await list('first: 20, orderBy: {field: UPDATED_AT, direction: DESC}')), restUpdated.map((i) => i.number));
    assert.deepEqual(nums(await list(`first: 20, filterBy: {createdBy: "${carol.login}"}`)), [numbers[1], numbers[3], numbers[5]]);
    assert.deepEqual(nums(await list(`first: 20, filterBy: {assignee: "${carol.login}"}`)), [numbers[4]]);
    assert.deepEqual(nums(await list('first: 20, filterBy: {assignee: "*"}')), [numbers[4]]);
    assert.equal((await list('first: 20, filterBy: {assignee: null}')).totalCount, 6);
    // A variable the request leaves out leaves its input field out (as gh's issue list sends
    // filterBy: {assignee: $assignee, …}): not given, so no filter; given as null, unassigned.
    const byVariables = (variables: Record<string, unknown>) => q<{ repository: { issues: { totalCount: number } } }>(alice,
      `query($assignee: String, $milestone: String) { repository(owner: "${r.owner}", name: "${r.repo}") { issues(first: 20, filterBy: {assignee: $assignee, milestone: $milestone}) { totalCount } } }`,
      variables).then((d) => d.repository.issues.totalCount);
    assert.equal(await byVariables({}), 7);
    assert.equal(await byVariables({ assignee: null }), 6);
    assert.equal(await byVariables({ milestone: null }), 6);
    assert.deepEqual(nums(await list(`first: 20, filterBy: {mentioned: "${bob.login}"}`)), [numbers[3]]);
    assert.deepEqual(nums(await list(`first: 20, filterBy: {milestoneNumber: "${m.number}"}`)), [numbers[5]]);
    assert.deepEqual(nums(await list(`first: 20, filterBy: {milestone: "${m.id}"}`)), [numbers[5]]);
    assert.deepEqual(nums(await list('first: 20, filterBy: {milestone: "*"}')), [numbers[5]]);
    assert.deepEqual(nums(await list('first: 20, filterBy: {states: [CLOSED]}')), [numbers[1], numbers[2]]);
    assert.deepEqual(nums(await list('first: 20, states: [OPEN], filterBy: {states: [CLOSED]}')), []);
    assert.deepEqual(nums(await list('first: 20, filterBy: {createdBy: "nobody-at-all"}')), []);
    const { data: updated } = await rest(alice).issues.get({ owner: r.owner, repo: r.repo, issue_number: numbers[0]! });
    const { data: restSince } = await rest(alice).issues.listForRepo({ owner: r.owner, repo: r.repo, state: 'all', since: updated.updated_at, direction: 'asc' });
    assert.deepEqual(nums(await list('first: 20, filterBy: {since: $since}', { since: updated.updated_at })), restSince.map((i) => i.number));
    assert.deepEqual(nums(await list('first: 20, filterBy: {since: $since}', { since: '2100-01-01T00:00:00Z' })), []);
    assert.deepEqual(nums(await list(`first: 20, filterBy: {viewerSubscribed: true}`)), [numbers[0], numbers[2], numbers[4], numbers[6]]);

    // Forwards, page by page.
    const seen: number[] = [];
    let after: string | null = null;
    for (;;) {
      const page = await list('first: 3, after: $after', { after });
      seen.push(...nums(page));
      assert.equal(page.pageInfo.hasPreviousPage, after !== null);
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    assert.deepEqual(seen, numbers);
    // Backwards, page by page.
    const back: number[][] = [];
    let before: string | null = null;
    for (;;) {
      const page = await list('last: 3, before: $before', { before });
      back.push(nums(page));
      assert.equal(page.pageInfo.hasNextPage, before !== null);
      if (!page.pageInfo.hasPreviousPage) break;
      before = page.pageInfo.startCursor;
    }
    assert.deepEqual(back, [numbers.slice(4), numbers.slice(1, 4), numbers.slice(0, 1)]);

    // Labels and milestones list their issues.
    const lm = await q<{ repository: { label: { issues: { nodes: { number: number }[] } }; milestone: { issues: { totalCount: number }; progressPercentage: number } } }>(alice,
      `{ repository(owner: "${r.owner}", name: "${r.repo}") { label(name: "sail") { issues(first: 10) { nodes { number } } }
        milestone(number: ${m.number}) { issues(first: 10) { totalCount } progressPercentage } } }`);
    assert.deepEqual(nums(lm.repository.label.issues), [numbers[0], numbers[3], numbers[6]]);
    assert.equal(lm.repository.milestone.issues.totalCount, 1);
    assert.equal(lm.repository.milestone.progressPercentage, 0);
  });

  test('pagination needs bounds, and bad cursors and arguments are errors', async () => {
    const missing = await graphqlErrors(q(alice, `{ repository(owner: "${harbor.owner}", name: "${harbor.repo}") { issues { nodes { number } } } }`));
    assert.equal(missing.errors[0]!.type, 'MISSING_PAGINATION_BOUNDARIES');
    assert.match(missing.errors[0]!.message, /`issues` connection/);
    const big = await graphqlErrors(q(alice, `{ repository(owner: "${harbor.owner}", name: "${harbor.repo}") { issues(first: 101) { nodes { number } } } }`));
    assert.equal(big.errors[0]!.type, 'EXCESSIVE_PAGINATION');
    const cursor = await graphqlErrors(q(alice, `{ repository(owner: "${harbor.owner}", name: "${harbor.repo}") { issues(first: 1, after: "bogus") { nodes { number } } } }`));
    assert.equal(cursor.errors[0]!.type, 'INVALID_CURSOR_ARGUMENTS');
    const state = await graphqlErrors(q(alice, `{ repository(owner: "${harbor.owner}", name: "${harbor.repo}") { issues(first: 1, states: [MERGED]) { nodes { number } } } }`));
    assert.match(state.errors[0]!.message, /MERGED/);
    // totalCount alone needs no bounds.
    const count = await q<{ repository: { issues: { totalCount: number } } }>(alice, `{ repository(owner: "${harbor.owner}", name: "${harbor.repo}") { issues { totalCount } } }`);
    assert.ok(count.repository.issues.totalCount >= 1);
  });

  test('labels, milestones and assignable users of a repository', async () => {
    const { data: restLabels } = await rest(alice).issues.listLabelsForRepo({ owner: harbor.owner, repo: harbor.repo, per_page: 100 });
    const r = await q<{ repository: {
      labels: { totalCount: number; nodes: { id: string; name: string; color: string; isDefault: boolean; url: string; repository: { name: string } }[] };
      byName: { nodes: { name: string }[] }; found: { nodes: { name: string }[] };
      label: { id: string; name: string; description: string; createdAt: string; resourcePath: string } | null; none: null;
      milestones: { nodes: { id: string; number: number; title: string; state: string; dueOn: string; closed: boolean; url: string; creator: { login: string }; viewerCanClose: boolean }[] };
      milestone: { id: string; title: string } | null; noMilestone: null;
      assignableUsers: { nodes: { login: string }[] }; someAssignable: { nodes: { login: string }[] };
    } }>(alice, `{ repository(owner: "${harbor.owner}", name: "${harbor.repo}") {
      labels(first: 100) { totalCount nodes { id name color isDefault url repository { name } } }
      byName: labels(first: 3, orderBy: {field: NAME, direction: DESC}) { nodes { name } }
      found: labels(first: 10, query: "DOC") { nodes { name } }
      label(name: "DECK") { id name description createdAt resourcePath } none: label(name: "nope") { id }
      milestones(first: 10, states: [OPEN], orderBy: {field: DUE_DATE, direction: ASC}) { nodes { id number title state dueOn closed url creator { login } viewerCanClose } }
      milestone(number: ${milestoneNumber}) { id title } noMilestone: milestone(number: 999) { id }
      assignableUsers(first: 10) { nodes { login } } someAssignable: assignableUsers(first: 10, query: "${carol.login}") { nodes { login } }
    } }`);
    const repo = r.repository;
    assert.equal(repo.labels.totalCount, restLabels.length);
    // Oldest first (upstream's default order), the same ids and values as REST.
    assert.deepEqual(repo.labels.nodes.map((l) => l.id).sort(), restLabels.map((l) => l.node_id).sort());
    const deck = repo.labels.nodes.find((l) => l.name === 'deck')!;
    const restDeck = restLabels.find((l) => l.name === 'deck')!;
    assert.deepEqual({ id: deck.id, color: deck.color, isDefault: deck.isDefault }, { id: restDeck.node_id, color: '112233', isDefault: false });
    assert.equal(repo.labels.nodes[repo.labels.nodes.length - 1]!.name, 'deck');
    assert.equal(repo.labels.nodes.find((l) => l.name === 'bug')!.isDefault, true);
    assert.deepEqual(repo.byName.nodes.map((l) => l.name), ['wontfix', 'question', 'invalid']);
    assert.deepEqual(repo.found.nodes.map((l) => l.name), ['documentation']);
    assert.equal(repo.label!.id, restDeck.node_id);
    assert.equal(repo.label!.description, 'On deck');
    assert.equal(repo.label!.resourcePath, `/${harbor.owner}/${harbor.repo}/labels/deck`);
    assert.equal(repo.none, null);
    assert.deepEqual(repo.milestones.nodes.map((m) => ({ id: m.id, title: m.title, state: m.state, closed: m.closed, creator: m.creator.login, viewerCanClose: m.viewerCanClose })),
      [{ id: milestoneNodeId, title: 'v1', state: 'OPEN', closed: false, creator: alice.login, viewerCanClose: true }]);
    const { data: restMilestone } = await rest(alice).issues.getMilestone({ owner: harbor.owner, repo: harbor.repo, milestone_number: milestoneNumber });
    assert.equal(repo.milestones.nodes[0]!.url, restMilestone.html_url);
    assert.equal(repo.milestones.nodes[0]!.dueOn, restMilestone.due_on);
    assert.deepEqual(repo.milestone, { id: milestoneNodeId, title: 'v1' });
    assert.equal(repo.noMilestone, null);
    const { data: restAssignees } = await rest(alice).issues.listAssignees({ owner: harbor.owner, repo: harbor.repo });
    assert.deepEqual(repo.assignableUsers.nodes.map((u) => u.login), restAssignees.map((u) => u.login));
    assert.deepEqual(repo.someAssignable.nodes, [{ login: carol.login }]);
  });

  test('node(id:) and nodes(ids:) resolve issues, comments, labels and milestones the caller may see', async () => {
    const open = await createIssue(t, alice.token, harbor, { title: 'Node me', labels: ['deck'], milestone: milestoneNumber });
    const secret = await createIssue(t, alice.token, vault, { title: 'Secret' });
    const { data: comment } = await rest(alice).issues.createComment({ owner: vault.owner, repo: vault.repo, issue_number: secret.number, body: 'hush' });
    const label = open.labels[0]!;
    assert.ok(typeof label !== 'string');
    const r = await q<{ nodes: ({ __typename: string; id: string; title?: string; name?: string } | null)[] }>(bob,
      `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id ... on Issue { title } ... on Label { name } ... on Milestone { title } } }`,
      { ids: [open.node_id, label.node_id, milestoneNodeId] });
    assert.deepEqual(r.nodes, [
      { __typename: 'Issue', id: open.node_id, title: 'Node me' },
      { __typename: 'Label', id: label.node_id, name: 'deck' },
      { __typename: 'Milestone', id: milestoneNodeId, title: 'v1' },
    ]);
    // A private repository's issue and comment are not there for bob; for alice they are.
    for (const id of [secret.node_id, comment.node_id]) {
      const hidden = await graphqlErrors(q(bob, `query($id: ID!) { node(id: $id) { id } }`, { id }));
      assert.deepEqual(hidden.errors.map((e) => ({ type: e.type, message: e.message })), [{ type: 'NOT_FOUND', message: `Could not resolve to a node with the global id of '${id}'.` }]);
      const seen = await q<{ node: { id: string } }>(alice, `query($id: ID!) { node(id: $id) { id } }`, { id });
      assert.equal(seen.node.id, id);
    }
  });

  test('issue(number:), issueOrPullRequest(number:) and their errors', async () => {
    const made = await createIssue(t, alice.token, harbor, { title: 'Numbered' });
    const r = await q<{ repository: { issueOrPullRequest: { __typename: string; number: number; title: string } } }>(bob,
      `{ repository(owner: "${harbor.owner}", name: "${harbor.repo}") { issueOrPullRequest(number: ${made.number}) { __typename ... on Issue { number title } } } }`);
    assert.deepEqual(r.repository.issueOrPullRequest, { __typename: 'Issue', number: made.number, title: 'Numbered' });
    const missing = await graphqlErrors(q(bob, `{ repository(owner: "${harbor.owner}", name: "${harbor.repo}") { issue(number: 9999) { id } } }`));
    assert.deepEqual(missing.errors.map((e) => ({ type: e.type, path: e.path, message: e.message })),
      [{ type: 'NOT_FOUND', path: ['repository', 'issue'], message: 'Could not resolve to an Issue with the number of 9999.' }]);
    assert.deepEqual(missing.data, { repository: { issue: null } });
    const either = await graphqlErrors(q(bob, `{ repository(owner: "${harbor.owner}", name: "${harbor.repo}") { issueOrPullRequest(number: 9999) { __typename } } }`));
    assert.equal(either.errors[0]!.message, 'Could not resolve to an issue or pull request with the number of 9999.');
    const hidden = await graphqlErrors(q(bob, `{ repository(owner: "${vault.owner}", name: "${vault.repo}") { issue(number: 1) { id } } }`));
    assert.deepEqual(hidden.errors.map((e) => ({ type: e.type, message: e.message })),
      [{ type: 'NOT_FOUND', message: `Could not resolve to a Repository with the name '${vault.owner}/${vault.repo}'.` }]);
  });

  test('User.issues lists the issues a user opened where the viewer may read', async () => {
    const dave = await createUser(t);
    const r1 = await createRepo(t, dave, { name: 'open-sea' });
    const r2 = await createRepo(t, dave, { name: 'closed-sea', private: true });
    const a = await createIssue(t, dave.token, r1, { title: 'public one' });
    await createIssue(t, dave.token, r2, { title: 'private one' });
    const b = await createIssue(t, dave.token, harbor, { title: 'elsewhere' });
    const seenByBob = await q<{ user: { issues: { totalCount: number; nodes: { title: string }[] } } }>(bob,
      `{ user(login: "${dave.login}") { issues(first: 10) { totalCount nodes { title } } } }`);
    assert.deepEqual(seenByBob.user.issues.nodes.map((n) => n.title).sort(), [a.title, b.title].sort());
    const seenByDave = await q<{ user: { issues: { totalCount: number } } }>(dave, `{ viewer { login } user(login: "${dave.login}") { issues(first: 10, states: [OPEN]) { totalCount } } }`);
    assert.equal(seenByDave.user.issues.totalCount, 3);
  });

  test('search(type: ISSUE) finds issues by words and qualifiers, only where the caller may read', async () => {
    const r = await createRepo(t, alice, { name: 'searchable' });
    await addCollaborator(t, alice.token, r, carol, 'push');
    await createIssue(t, alice.token, r, { title: 'Anchor chain rusty', body: 'needs oil', labels: ['bug'] });
    const two = await createIssue(t, carol.token, r, { title: 'Anchor light', body: `ask @${bob.login}` });
    await rest(alice).issues.update({ owner: r.owner, repo: r.repo, issue_number: two.number, state: 'closed', assignees: [carol.login] });
    await createIssue(t, alice.token, vault, { title: 'Anchor secret' });
    const search = async (u: CreatedUser, query: string) => (await q<{ search: { issueCount: number; repositoryCount: number; nodes: { __typename: string; title: string }[] } }>(u,
      `query($q: String!) { search(query: $q, type: ISSUE, first: 20) { issueCount repositoryCount nodes { __typename ... on Issue { title } } } }`, { q: query })).search;
    const titles = (s: { nodes: { title: string }[] }) => s.nodes.map((n) => n.title).sort();

    assert.deepEqual(titles(await search(bob, `anchor repo:${r.owner}/${r.repo}`)), ['Anchor chain rusty', 'Anchor light']);
    const everywhere = await search(bob, 'anchor is:issue');
    assert.ok(!titles(everywhere).includes('Anchor secret'));
    assert.ok(titles(everywhere).includes('Anchor light'));
    assert.equal(everywhere.repositoryCount, 0);
    assert.ok(titles(await search(alice, 'anchor')).includes('Anchor secret'));
    assert.deepEqual(titles(await search(bob, `anchor is:open repo:${r.owner}/${r.repo}`)), ['Anchor chain rusty']);
    assert.deepEqual(titles(await search(bob, `is:closed repo:${r.owner}/${r.repo}`)), ['Anchor light']);
    assert.deepEqual(titles(await search(bob, `author:${carol.login} repo:${r.owner}/${r.repo}`)), ['Anchor light']);
    assert.deepEqual(titles(await search(bob, `assignee:${carol.login} repo:${r.owner}/${r.repo}`)), ['Anchor light']);
    assert.deepEqual(titles(await search(bob, `label:bug repo:${r.owner}/${r.repo}`)), ['Anchor chain rusty']);
    assert.deepEqual(titles(await search(bob, `mentions:${bob.login} repo:${r.owner}/${r.repo}`)), ['Anchor light']);
    assert.deepEqual(titles(await search(bob, `OIL user:${alice.login}`)), ['Anchor chain rusty']);
    assert.deepEqual(titles(await search(bob, `is:pr repo:${r.owner}/${r.repo}`)), []);
    const counted = await search(bob, `anchor repo:${r.owner}/${r.repo}`);
    assert.equal(counted.issueCount, 2);
    assert.ok(counted.nodes.every((n) => n.__typename === 'Issue'));
    // A repository the caller may not read cannot be searched.
    const refused = await graphqlErrors(q(bob, `{ search(query: "anchor repo:${vault.owner}/${vault.repo}", type: ISSUE, first: 5) { issueCount } }`));
    assert.equal(refused.errors[0]!.type, 'UNPROCESSABLE');
    assert.match(refused.errors[0]!.message, /cannot be searched/);
  });

  test('createIssue, updateIssue, closeIssue and reopenIssue write what REST then reads, with events', async () => {
    const { repository } = await q<{ repository: { id: string; databaseId: number; label: { id: string }; milestone: { id: string } } }>(alice,
      `{ repository(owner: "${harbor.owner}", name: "${harbor.repo}") { id databaseId label(name: "deck") { id } milestone(number: ${milestoneNumber}) { id } } }`);
    const { user: carolNode } = await q<{ user: { id: string } }>(alice, `{ user(login: "${carol.login}") { id } }`);
    const before = (await listEvents(t.server.ctx, { event: 'issues', repositoryId: repository.databaseId })).length;

    const created = await q<{ createIssue: { clientMutationId: string; issue: { id: string; number: number; title: string; body: string; labels: { nodes: { name: string }[] }; assignees: { nodes: { login: string }[] }; milestone: { title: string } } } }>(alice,
      `mutation($input: CreateIssueInput!) { createIssue(input: $input) { clientMutationId issue { id number title body labels(first: 5) { nodes { name } } assignees(first: 5) { nodes { login } } milestone { title } } } }`,
      { input: { clientMutationId: 'c1', repositoryId: repository.id, title: 'From GraphQL', body: 'Body **here**', labelIds: [repository.label.id], assigneeIds: [carolNode.id], milestoneId: repository.milestone.id } });
    const issue = created.createIssue.issue;
    assert.equal(created.createIssue.clientMutationId, 'c1');
    assert.deepEqual({ title: issue.title, body: issue.body, labels: issue.labels.nodes, assignees: issue.assignees.nodes, milestone: issue.milestone },
      { title: 'From GraphQL', body: 'Body **here**', labels: [{ name: 'deck' }], assignees: [{ login: carol.login }], milestone: { title: 'v1' } });
    const { data: seen } = await rest(bob).issues.get({ owner: harbor.owner, repo: harbor.repo, issue_number: issue.number });
    assert.equal(seen.node_id, issue.id);
    assert.equal(seen.title, 'From GraphQL');
    assert.deepEqual(seen.labels.map((l) => (typeof l === 'string' ? l : l.name)), ['deck']);
    assert.deepEqual(seen.assignees!.map((a) => a.login), [carol.login]);
    assert.equal(seen.milestone!.number, milestoneNumber);
    assert.equal(seen.user!.login, alice.login);

    const updated = await q<{ updateIssue: { actor: { login: string }; issue: { title: string; body: string; state: string; labels: { nodes: { name: string }[] }; assignees: { totalCount: number }; milestone: null } } }>(alice,
      `mutation($input: UpdateIssueInput!) { updateIssue(input: $input) { actor { login } issue { title body state labels(first: 5) { nodes { name } } assignees(first: 5) { totalCount } milestone { title } } } }`,
      { input: { id: issue.id, title: 'Renamed', body: 'New body', labelIds: [], assigneeIds: [], milestoneId: null } });
    assert.deepEqual(updated.updateIssue, { actor: { login: alice.login }, issue: { title: 'Renamed', body: 'New body', state: 'OPEN', labels: { nodes: [] }, assignees: { totalCount: 0 }, milestone: null } });
    const { data: afterUpdate } = await rest(alice).issues.get({ owner: harbor.owner, repo: harbor.repo, issue_number: issue.number });
    assert.deepEqual([afterUpdate.title, afterUpdate.body, afterUpdate.labels.length, afterUpdate.assignees!.length, afterUpdate.milestone], ['Renamed', 'New body', 0, 0, null]);

    const closed = await q<{ closeIssue: { clientMutationId: null; issue: { state: string; stateReason: string; closed: boolean; closedAt: string } } }>(alice,
      `mutation($id: ID!) { closeIssue(input: {issueId: $id, stateReason: NOT_PLANNED}) { clientMutationId issue { state stateReason closed closedAt } } }`, { id: issue.id });
    assert.equal(closed.closeIssue.clientMutationId, null);
    assert.equal(closed.closeIssue.issue.state, 'CLOSED');
    assert.equal(closed.closeIssue.issue.stateReason, 'NOT_PLANNED');
    assert.equal(closed.closeIssue.issue.closed, true);
    const { data: afterClose } = await rest(alice).issues.get({ owner: harbor.owner, repo: harbor.repo, issue_number: issue.number });
    assert.deepEqual([afterClose.state, afterClose.state_reason, afterClose.closed_at, afterClose.closed_by!.login], ['closed', 'not_planned', closed.closeIssue.issue.closedAt, alice.login]);

    const reopened = await q<{ reopenIssue: { issue: { state: string; stateReason: string; closedAt: null } } }>(alice,
      `mutation($id: ID!) { reopenIssue(input: {issueId: $id}) { issue { state stateReason closedAt } } }`, { id: issue.id });
    assert.deepEqual(reopened.reopenIssue.issue, { state: 'OPEN', stateReason: 'REOPENED', closedAt: null });

    const actions = (await listEvents(t.server.ctx, { event: 'issues', repositoryId: repository.databaseId })).slice(before).map((e) => e.action);
    assert.deepEqual(actions, ['opened', 'edited', 'demilestoned', 'unassigned', 'unlabeled', 'closed', 'reopened']);
  });

  test('comment mutations: addComment, updateIssueComment, deleteIssueComment', async () => {
    const issue = await createIssue(t, alice.token, harbor, { title: 'Talk' });
    await rest(alice).issues.createComment({ owner: harbor.owner, repo: harbor.repo, issue_number: issue.number, body: 'earlier' });
    const added = await q<{ addComment: { clientMutationId: string; commentEdge: { cursor: string; node: { id: string; body: string; author: { login: string } } }; subject: { __typename: string; id: string } } }>(carol,
      `mutation($input: AddCommentInput!) { addComment(input: $input) { clientMutationId commentEdge { cursor node { id body author { login } } } subject { __typename id } } }`,
      { input: { subjectId: issue.node_id, body: 'Aye', clientMutationId: 'm' } });
    assert.equal(added.addComment.clientMutationId, 'm');
    assert.deepEqual(added.addComment.subject, { __typename: 'Issue', id: issue.node_id });
    assert.equal(added.addComment.commentEdge.node.body, 'Aye');
    // The edge's cursor continues the issue's comment list.
    const after = await q<{ node: { comments: { nodes: { id: string }[] } } }>(carol,
      `query($id: ID!, $c: String) { node(id: $id) { ... on Issue { comments(last: 5, before: $c) { nodes { id } } } } }`, { id: issue.node_id, c: added.addComment.commentEdge.cursor });
    assert.equal(after.node.comments.nodes.length, 1);
    const { data: listed } = await rest(bob).issues.listComments({ owner: harbor.owner, repo: harbor.repo, issue_number: issue.number });
    assert.deepEqual(listed.map((c) => [c.node_id, c.body, c.user!.login]).slice(-1), [[added.addComment.commentEdge.node.id, 'Aye', carol.login]]);
    const events = await listEvents(t.server.ctx, { event: 'issue_comment', repositoryId: harbor.id });
    assert.equal(events.at(-1)!.action, 'created');

    // Others may not edit carol's comment without push access.
    const refused = await graphqlErrors(q(bob, `mutation($id: ID!) { updateIssueComment(input: {id: $id, body: "mine"}) { issueComment { body } } }`, { id: added.addComment.commentEdge.node.id }));
    assert.deepEqual(refused.errors.map((e) => ({ type: e.type, path: e.path })), [{ type: 'FORBIDDEN', path: ['updateIssueComment'] }]);
    const edited = await q<{ updateIssueComment: { issueComment: { body: string; updatedAt: string } } }>(carol,
      `mutation($id: ID!) { updateIssueComment(input: {id: $id, body: "Aye aye"}) { issueComment { body updatedAt } } }`, { id: added.addComment.commentEdge.node.id });
    assert.equal(edited.updateIssueComment.issueComment.body, 'Aye aye');
    const { data: restComment } = await rest(bob).issues.getComment({ owner: harbor.owner, repo: harbor.repo, comment_id: listed.at(-1)!.id });
    assert.equal(restComment.body, 'Aye aye');

    const deleted = await q<{ deleteIssueComment: { clientMutationId: string } }>(alice,
      `mutation($id: ID!) { deleteIssueComment(input: {id: $id, clientMutationId: "d"}) { clientMutationId } }`, { id: added.addComment.commentEdge.node.id });
    assert.deepEqual(deleted.deleteIssueComment, { clientMutationId: 'd' });
    const { data: remaining } = await rest(bob).issues.listComments({ owner: harbor.owner, repo: harbor.repo, issue_number: issue.number });
    assert.deepEqual(remaining.map((c) => c.body), ['earlier']);
    const gone = await graphqlErrors(q(alice, `mutation($id: ID!) { deleteIssueComment(input: {id: $id}) { clientMutationId } }`, { id: added.addComment.commentEdge.node.id }));
    assert.equal(gone.errors[0]!.type, 'NOT_FOUND');
  });

  test('labels, assignees and locks through Labelable, Assignable and Lockable', async () => {
    const issue = await createIssue(t, alice.token, harbor, { title: 'Decorate', labels: ['bug'] });
    const { repository } = await q<{ repository: { deck: { id: string }; bug: { id: string }; question: { id: string } } }>(alice,
      `{ repository(owner: "${harbor.owner}", name: "${harbor.repo}") { deck: label(name: "deck") { id } bug: label(name: "bug") { id } question: label(name: "question") { id } } }`);
    const { carol: carolNode, alice: aliceNode } = await q<{ carol: { id: string }; alice: { id: string } }>(alice,
      `{ carol: user(login: "${carol.login}") { id } alice: user(login: "${alice.login}") { id } }`);
    const labelNames = (x: { labels: { nodes: { name: string }[] } }) => x.labels.nodes.map((l) => l.name).sort();

    const added = await q<{ addLabelsToLabelable: { clientMutationId: string; labelable: { __typename: string; labels: { nodes: { name: string }[] } } } }>(carol,
      `mutation($input: AddLabelsToLabelableInput!) { addLabelsToLabelable(input: $input) { clientMutationId labelable { __typename labels(first: 10) { nodes { name } } } } }`,
      { input: { labelableId: issue.node_id, labelIds: [repository.deck.id, repository.question.id], clientMutationId: 'l' } });
    assert.equal(added.addLabelsToLabelable.labelable.__typename, 'Issue');
    assert.deepEqual(labelNames(added.addLabelsToLabelable.labelable), ['bug', 'deck', 'question']);
    const removed = await q<{ removeLabelsFromLabelable: { labelable: { labels: { nodes: { name: string }[] } } } }>(carol,
      `mutation($input: RemoveLabelsFromLabelableInput!) { removeLabelsFromLabelable(input: $input) { labelable { labels(first: 10) { nodes { name } } } } }`,
      { input: { labelableId: issue.node_id, labelIds: [repository.bug.id, repository.question.id] } });
    assert.deepEqual(labelNames(removed.removeLabelsFromLabelable.labelable), ['deck']);
    const { data: restLabels } = await rest(bob).issues.listLabelsOnIssue({ owner: harbor.owner, repo: harbor.repo, issue_number: issue.number });
    assert.deepEqual(restLabels.map((l) => l.name), ['deck']);
    const labelActions = (await listEvents(t.server.ctx, { event: 'issues', repositoryId: harbor.id })).slice(-3).map((e) => e.action);
    assert.deepEqual(labelActions, ['labeled', 'unlabeled', 'unlabeled']);
    // Without triage access, labels stay as they are.
    const refused = await graphqlErrors(q(bob, `mutation($input: AddLabelsToLabelableInput!) { addLabelsToLabelable(input: $input) { clientMutationId } }`,
      { input: { labelableId: issue.node_id, labelIds: [repository.bug.id] } }));
    assert.deepEqual(refused.errors.map((e) => ({ type: e.type, message: e.message })), [{ type: 'FORBIDDEN', message: 'Must have triage access to change the labels of an issue.' }]);

    const assigned = await q<{ addAssigneesToAssignable: { assignable: { assignees: { nodes: { login: string }[] } } } }>(alice,
      `mutation($input: AddAssigneesToAssignableInput!) { addAssigneesToAssignable(input: $input) { assignable { ... on Issue { assignees(first: 5) { nodes { login } } } } } }`,
      { input: { assignableId: issue.node_id, assigneeIds: [carolNode.id, aliceNode.id] } });
    assert.deepEqual(assigned.addAssigneesToAssignable.assignable.assignees.nodes.map((a) => a.login).sort(), [alice.login, carol.login].sort());
    const unassigned = await q<{ removeAssigneesFromAssignable: { assignable: { assignees: { nodes: { login: string }[] } } } }>(alice,
      `mutation($input: RemoveAssigneesFromAssignableInput!) { removeAssigneesFromAssignable(input: $input) { assignable { assignees(first: 5) { nodes { login } } } } }`,
      { input: { assignableId: issue.node_id, assigneeIds: [aliceNode.id] } });
    assert.deepEqual(unassigned.removeAssigneesFromAssignable.assignable.assignees.nodes, [{ login: carol.login }]);
    const { data: restIssue } = await rest(bob).issues.get({ owner: harbor.owner, repo: harbor.repo, issue_number: issue.number });
    assert.deepEqual(restIssue.assignees!.map((a) => a.login), [carol.login]);

    const locked = await q<{ lockLockable: { actor: { login: string }; lockedRecord: { locked: boolean; activeLockReason: string } } }>(alice,
      `mutation($id: ID!) { lockLockable(input: {lockableId: $id, lockReason: TOO_HEATED}) { actor { login } lockedRecord { locked activeLockReason } } }`, { id: issue.node_id });
    assert.deepEqual(locked.lockLockable, { actor: { login: alice.login }, lockedRecord: { locked: true, activeLockReason: 'TOO_HEATED' } });
    const lockedRest = await t.request(`/repos/${harbor.owner}/${harbor.repo}/issues/${issue.number}`, { token: bob.token, headers: { accept: 'application/vnd.service.sailor-v-preview+json' } });
    const lockedBody = (await lockedRest.json()) as { locked: boolean; active_lock_reason: string };
    assert.deepEqual([lockedBody.locked, lockedBody.active_lock_reason], [true, 'too heated']);
    // A locked issue takes no reactions or comments from those without push access.
    const view = await q<{ node: { viewerCanReact: boolean } }>(bob, `query($id: ID!) { node(id: $id) { ... on Issue { viewerCanReact } } }`, { id: issue.node_id });
    assert.equal(view.node.viewerCanReact, false);
    const noComment = await graphqlErrors(q(bob, `mutation($id: ID!) { addComment(input: {subjectId: $id, body: "hi"}) { clientMutationId } }`, { id: issue.node_id }));
    assert.deepEqual(noComment.errors.map((e) => ({ type: e.type, message: e.message })), [{ type: 'FORBIDDEN', message: 'Unable to create comment because issue is locked.' }]);
    const notPusher = await graphqlErrors(q(bob, `mutation($id: ID!) { unlockLockable(input: {lockableId: $id}) { clientMutationId } }`, { id: issue.node_id }));
    assert.deepEqual(notPusher.errors.map((e) => ({ type: e.type, message: e.message })), [{ type: 'FORBIDDEN', message: 'Must have push access to unlock this issue.' }]);
    const unlocked = await q<{ unlockLockable: { unlockedRecord: { locked: boolean; activeLockReason: null } } }>(alice,
      `mutation($id: ID!) { unlockLockable(input: {lockableId: $id}) { unlockedRecord { locked activeLockReason } } }`, { id: issue.node_id });
    assert.deepEqual(unlocked.unlockLockable.unlockedRecord, { locked: false, activeLockReason: null });
    const lockActions = (await listEvents(t.server.ctx, { event: 'issues', repositoryId: harbor.id })).slice(-2).map((e) => e.action);
    assert.deepEqual(lockActions, ['locked', 'unlocked']);
  });

  test('mutation errors: ids the caller cannot see, others\' issues, validation, and scopes', async () => {
    const secret = await createIssue(t, alice.token, vault, { title: 'Secret' });
    const { repository: vaultNode } = await q<{ repository: { id: string } }>(alice, `{ repository(owner: "${vault.owner}", name: "${vault.repo}") { id } }`);
    const hiddenRepo = await graphqlErrors(q(bob, `mutation($r: ID!) { createIssue(input: {repositoryId: $r, title: "x"}) { issue { id } } }`, { r: vaultNode.id }));
    assert.deepEqual(hiddenRepo.errors.map((e) => ({ type: e.type, path: e.path, message: e.message })),
      [{ type: 'NOT_FOUND', path: ['createIssue'], message: `Could not resolve to a node with the global id of '${vaultNode.id}'.` }]);
    assert.deepEqual(hiddenRepo.data, { createIssue: null });
    const hiddenIssue = await graphqlErrors(q(bob, `mutation($id: ID!) { closeIssue(input: {issueId: $id}) { issue { id } } }`, { id: secret.node_id }));
    assert.equal(hiddenIssue.errors[0]!.type, 'NOT_FOUND');
    const wrongType = await graphqlErrors(q(alice, `mutation($id: ID!) { closeIssue(input: {issueId: $id}) { issue { id } } }`, { id: milestoneNodeId }));
    assert.equal(wrongType.errors[0]!.message, `Could not resolve to a node with the global id of '${milestoneNodeId}'.`);

    const theirs = await createIssue(t, alice.token, harbor, { title: 'Not bob\'s' });
    const forbidden = await graphqlErrors(q(bob, `mutation($id: ID!) { updateIssue(input: {id: $id, title: "bob was here"}) { issue { title } } }`, { id: theirs.node_id }));
    assert.deepEqual(forbidden.errors.map((e) => ({ type: e.type, message: e.message })), [{ type: 'FORBIDDEN', message: 'Must have triage access to edit this issue.' }]);
    const { data: unchanged } = await rest(alice).issues.get({ owner: harbor.owner, repo: harbor.repo, issue_number: theirs.number });
    assert.equal(unchanged.title, 'Not bob\'s');
    // bob may edit his own issue's title, as the author.
    const own = await createIssue(t, bob.token, harbor, { title: 'Bob\'s' });
    const ownEdit = await q<{ updateIssue: { issue: { title: string } } }>(bob, `mutation($id: ID!) { updateIssue(input: {id: $id, title: "Bob's own"}) { issue { title } } }`, { id: own.node_id });
    assert.equal(ownEdit.updateIssue.issue.title, 'Bob\'s own');

    const { repository } = await q<{ repository: { id: string } }>(alice, `{ repository(owner: "${harbor.owner}", name: "${harbor.repo}") { id } }`);
    const blank = await graphqlErrors(q(alice, `mutation($r: ID!) { createIssue(input: {repositoryId: $r, title: "  "}) { issue { id } } }`, { r: repository.id }));
    assert.equal(blank.errors[0]!.type, 'UNPROCESSABLE');
    const noTitle = await graphqlErrors(q(alice, `mutation($r: ID!) { createIssue(input: {repositoryId: $r}) { issue { id } } }`, { r: repository.id }));
    assert.match(noTitle.errors[0]!.message, /title/);
    // NUL cannot be stored (PostgreSQL refuses it): refused before anything runs, in variables or in the query text.
    const nulVariable = await graphqlErrors(q(alice, `mutation($r: ID!, $t: String!) { createIssue(input: {repositoryId: $r, title: $t}) { issue { id } } }`, { r: repository.id, t: 'a\u0000b' }));
    assert.equal(nulVariable.errors[0]!.type, 'UNPROCESSABLE');
    assert.match(nulVariable.errors[0]!.message, /t must not contain NUL/);
    const nulLiteral = await graphqlErrors(q(alice, `mutation($r: ID!) { createIssue(input: {repositoryId: $r, title: "a\\u0000b"}) { issue { id } } }`, { r: repository.id }));
    assert.equal(nulLiteral.errors[0]!.type, 'UNPROCESSABLE');

    // A token without repo or public_repo may read but not write, and is told which scopes the field needs.
    const reader = await createUser(t, ['read:user']);
    const read = await q<{ repository: { issue: { title: string } } }>(reader, `{ repository(owner: "${harbor.owner}", name: "${harbor.repo}") { issue(number: ${theirs.number}) { title } } }`);
    assert.equal(read.repository.issue.title, 'Not bob\'s');
    const answer = await postGraphQL(t, reader.token, { query: `mutation($r: ID!) { createIssue(input: {repositoryId: $r, title: "x"}) { issue { id } } }`, variables: { r: repository.id } });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data, undefined);
    assert.deepEqual(answer.body.errors!.map((e) => ({ type: e.type, message: e.message })), [{ type: 'INSUFFICIENT_SCOPES',
      message: `Your token has not been granted the required scopes to execute this query. The 'createIssue' field requires one of the following scopes: ['public_repo', 'repo'], but your token has only been granted the: ['read:user'] scopes. Please modify your token's scopes at: ${t.baseUrl}/settings/tokens.` }]);
    for (const m of ['updateIssue(input: {id: "x"})', 'addComment(input: {subjectId: "x", body: "b"})', 'lockLockable(input: {lockableId: "x"})']) {
      const refused = await postGraphQL(t, reader.token, { query: `mutation { ${m} { clientMutationId } }` });
      assert.equal(refused.body.errors![0]!.type, 'INSUFFICIENT_SCOPES', m);
    }
    // A public_repo token writes to public repositories.
    const publicOnly = await createUser(t, ['public_repo']);
    const made = await q<{ createIssue: { issue: { author: { login: string } } } }>(publicOnly,
      `mutation($r: ID!) { createIssue(input: {repositoryId: $r, title: "public"}) { issue { author { login } } } }`, { r: repository.id });
    assert.equal(made.createIssue.issue.author.login, publicOnly.login);
  });

  test('pull requests: Labelable, Assignable and Lockable ids, issueOrPullRequest, addComment and search', async () => {
    const { data: main } = await rest(alice).git.getRef({ owner: harbor.owner, repo: harbor.repo, ref: 'heads/main' });
    await rest(alice).git.createRef({ owner: harbor.owner, repo: harbor.repo, ref: 'refs/heads/tide', sha: main.object.sha });
    await rest(alice).repos.createOrUpdateFileContents({ owner: harbor.owner, repo: harbor.repo, path: 'tide.txt', message: 'Tide', content: Buffer.from('tide\n').toString('base64'), branch: 'tide' });
    const { data: pull } = await rest(alice).pulls.create({ owner: harbor.owner, repo: harbor.repo, head: 'tide', base: 'main', title: 'Tidal charts' });
    const { repository } = await q<{ repository: { deck: { id: string }; issueOrPullRequest: { __typename: string; id: string; number: number } } }>(bob,
      `{ repository(owner: "${harbor.owner}", name: "${harbor.repo}") { deck: label(name: "deck") { id } issueOrPullRequest(number: ${pull.number}) { __typename ... on PullRequest { id number } } } }`);
    assert.deepEqual(repository.issueOrPullRequest, { __typename: 'PullRequest', id: pull.node_id, number: pull.number });
    // issue(number:) is for issues only, as upstream.
    const notIssue = await graphqlErrors(q(bob, `{ repository(owner: "${harbor.owner}", name: "${harbor.repo}") { issue(number: ${pull.number}) { id } } }`));
    assert.equal(notIssue.errors[0]!.type, 'NOT_FOUND');

    const labelled = await q<{ addLabelsToLabelable: { labelable: { __typename: string; number: number; labels: { nodes: { name: string }[] } } } }>(alice,
      `mutation($input: AddLabelsToLabelableInput!) { addLabelsToLabelable(input: $input) { labelable { __typename ... on PullRequest { number } labels(first: 5) { nodes { name } } } } }`,
      { input: { labelableId: pull.node_id, labelIds: [repository.deck.id] } });
    assert.deepEqual(labelled.addLabelsToLabelable.labelable, { __typename: 'PullRequest', number: pull.number, labels: { nodes: [{ name: 'deck' }] } });
    const { data: restLabels } = await rest(bob).issues.listLabelsOnIssue({ owner: harbor.owner, repo: harbor.repo, issue_number: pull.number });
    assert.deepEqual(restLabels.map((l) => l.name), ['deck']);
    const { user: carolNode } = await q<{ user: { id: string } }>(alice, `{ user(login: "${carol.login}") { id } }`);
    const assigned = await q<{ addAssigneesToAssignable: { assignable: { __typename: string; assignees: { nodes: { login: string }[] } } } }>(alice,
      `mutation($id: ID!, $who: [ID!]!) { addAssigneesToAssignable(input: {assignableId: $id, assigneeIds: $who}) { assignable { __typename assignees(first: 5) { nodes { login } } } } }`,
      { id: pull.node_id, who: [carolNode.id] });
    assert.deepEqual(assigned.addAssigneesToAssignable.assignable, { __typename: 'PullRequest', assignees: { nodes: [{ login: carol.login }] } });
    const { data: restPull } = await rest(bob).pulls.get({ owner: harbor.owner, repo: harbor.repo, pull_number: pull.number });
    assert.deepEqual(restPull.assignees!.map((a) => a.login), [carol.login]);
    const locked = await q<{ lockLockable: { lockedRecord: { __typename: string; locked: boolean; activeLockReason: string } } }>(alice,
      `mutation($id: ID!) { lockLockable(input: {lockableId: $id, lockReason: RESOLVED}) { lockedRecord { __typename locked activeLockReason } } }`, { id: pull.node_id });
    assert.deepEqual(locked.lockLockable.lockedRecord, { __typename: 'PullRequest', locked: true, activeLockReason: 'RESOLVED' });
    await q(alice, `mutation($id: ID!) { unlockLockable(input: {lockableId: $id}) { clientMutationId } }`, { id: pull.node_id });
    const commented = await q<{ addComment: { subject: { __typename: string }; commentEdge: { node: { body: string; issue: { number: number } } } } }>(carol,
      `mutation($id: ID!) { addComment(input: {subjectId: $id, body: "Looks tidal"}) { subject { __typename } commentEdge { node { body issue { number } } } } }`, { id: pull.node_id });
    assert.deepEqual(commented.addComment, { subject: { __typename: 'PullRequest' }, commentEdge: { node: { body: 'Looks tidal', issue: { number: pull.number } } } });
    const { data: restComments } = await rest(bob).issues.listComments({ owner: harbor.owner, repo: harbor.repo, issue_number: pull.number });
    assert.deepEqual(restComments.map((c) => c.body), ['Looks tidal']);

    // Repository.issues lists issues only; search finds the pull request with is:pr.
    const issuesOnly = await q<{ repository: { issues: { nodes: { number: number }[] } } }>(bob, `{ repository(owner: "${harbor.owner}", name: "${harbor.repo}") { issues(first: 100) { nodes { number } } } }`);
    assert.ok(!issuesOnly.repository.issues.nodes.some((n) => n.number === pull.number));
    const found = await q<{ search: { issueCount: number; nodes: { __typename: string; number: number }[] } }>(bob,
      `{ search(query: "tidal is:pr repo:${harbor.owner}/${harbor.repo}", type: ISSUE, first: 5) { issueCount nodes { __typename ... on PullRequest { number } } } }`);
    assert.deepEqual(found.search, { issueCount: 1, nodes: [{ __typename: 'PullRequest', number: pull.number }] });
    const asIssue = await q<{ search: { issueCount: number } }>(bob, `{ search(query: "tidal is:issue repo:${harbor.owner}/${harbor.repo}", type: ISSUE, first: 5) { issueCount } }`);
    assert.equal(asIssue.search.issueCount, 0);
  });

  test('the enterprise path answers the same', async () => {
    const r = await gql(t, alice.token, { ghes: true })<{ repository: { issues: { totalCount: number } } }>(`{ repository(owner: "${harbor.owner}", name: "${harbor.repo}") { issues { totalCount } } }`);
    const s = await q<{ repository: { issues: { totalCount: number } } }>(alice, `{ repository(owner: "${harbor.owner}", name: "${harbor.repo}") { issues { totalCount } } }`);
    assert.equal(r.repository.issues.totalCount, s.repository.issues.totalCount);
  });
});
