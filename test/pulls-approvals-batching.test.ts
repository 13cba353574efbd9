// Issue #22: a page of pull requests asked for with their merge state (GraphQL
// mergeable / mergeStateStatus, which weigh the approvals a protected base branch
// requires) reads the page's reviews in one query, not one per pull request.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addCollaborator } from './factories/issues.ts';
import { countStatements, gql } from './helpers/graphql.ts';

const PULLS = 4;
const b64 = (s: string) => Buffer.from(s).toString('base64');

let t: TestServer;
let owner: CreatedUser;
let reviewer: CreatedUser;
const repo = 'gated';

before(async () => {
  t = await startTestServer();
  owner = await createUser(t);
  reviewer = await createUser(t);
  const kit = t.octokit(owner.token);
  await kit.rest.repos.createForAuthenticatedUser({ name: repo, auto_init: true });
  await addCollaborator(t, owner.token, { owner: owner.login, repo }, reviewer, 'push');
  const { data: main } = await kit.rest.repos.getBranch({ owner: owner.login, repo, branch: 'main' });
  for (let i = 1; i <= PULLS; i++) {
    await kit.rest.git.createRef({ owner: owner.login, repo, ref: `refs/heads/topic-${i}`, sha: main.commit.sha });
    await kit.rest.repos.createOrUpdateFileContents({ owner: owner.login, repo, branch: `topic-${i}`, path: `f${i}.txt`, message: `Add f${i}`, content: b64(`${i}\n`) });
    const { data: pull } = await kit.rest.pulls.create({ owner: owner.login, repo, head: `topic-${i}`, base: 'main', title: `Topic ${i}` });
    // Every other one approved.
    if (i % 2 === 1) await t.octokit(reviewer.token).rest.pulls.createReview({ owner: owner.login, repo, pull_number: pull.number, event: 'APPROVE' });
  }
  await kit.rest.repos.updateBranchProtection({
    owner: owner.login, repo, branch: 'main', required_status_checks: null, enforce_admins: false,
    required_pull_request_reviews: { required_approving_review_count: 1 }, restrictions: null,
  });
});
after(async () => { await t?.close(); });

const QUERY = `query($o: String!, $r: String!, $n: Int!) { repository(owner: $o, name: $r) {
  pullRequests(first: $n, orderBy: { field: CREATED_AT, direction: ASC }) { nodes { title mergeable mergeStateStatus } } } }`;

interface Page { repository: { pullRequests: { nodes: { title: string; mergeable: string; mergeStateStatus: string }[] } } }

/** The page, and the statements it ran that read reviews. */
async function pageOf(n: number): Promise<{ page: Page; reviewReads: string[] }> {
  const counter = countStatements(t.server.ctx);
  try {
    const page = await gql(t, owner.token)<Page>(QUERY, { o: owner.login, r: repo, n });
    return { page, reviewReads: counter.statements.filter((s) => /pull_request_reviews/.test(s)) };
  } finally {
    counter.stop();
  }
}

test('the approvals of a page of pull requests are read in one query, and judged right', async () => {
  await pageOf(PULLS); // mergeability computed and stored first
  const one = await pageOf(1);
  const all = await pageOf(PULLS);
  assert.deepEqual(all.page.repository.pullRequests.nodes.map((p) => [p.title, p.mergeable, p.mergeStateStatus]), [
    ['Topic 1', 'MERGEABLE', 'CLEAN'], ['Topic 2', 'MERGEABLE', 'BLOCKED'], ['Topic 3', 'MERGEABLE', 'CLEAN'], ['Topic 4', 'MERGEABLE', 'BLOCKED'],
  ]);
  assert.ok(one.reviewReads.length > 0);
  assert.equal(all.reviewReads.length, one.reviewReads.length, `a page of 1: ${one.reviewReads.join('; ')}\na page of ${PULLS}: ${all.reviewReads.join('; ')}`);
});
