// Merge rules of a protected base branch that go beyond counts and checks: approvals
// count only from reviewers with write access, code owners (CODEOWNERS users and teams)
// must approve what they own, unresolved review threads block the merge (GraphQL
// resolveReviewThread / unresolveReviewThread), and a push to the head dismisses stale
// approvals. Each checked through REST (mergeable_state, the 405 of PUT …/merge) and
// the stored state.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { failsWith } from './helpers/failures.ts';
import { gql, graphqlErrors } from './helpers/graphql.ts';
import { listEvents } from '../src/events/outbox.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addCollaborator } from './factories/issues.ts';
import { addMember, createOrgWithOwner, createTeam } from './factories/orgs.ts';
import { checkout, cloneAs, commitFiles, push, repoWithFeature, type Clone } from './factories/pulls.ts';

let t: TestServer;
before(async () => { t = await startTestServer(); });
after(async () => { await t.close(); });

const OPEN = { required_status_checks: null, enforce_admins: null, restrictions: null } as const;

interface Pr {
  owner: CreatedUser;
  repo: string;
  number: number;
  clone: Clone;
}

/** A repository of a new owner with main and feature, `files` added to main first, and a pull request feature → main. */
async function pullWith(files: Record<string, string> = {}): Promise<Pr> {
  const owner = await createUser(t);
  const { clone } = await repoWithFeature(t, owner);
  if (Object.keys(files).length) {
    await commitFiles(clone, files, 'Add repository files');
    await push(clone, 'main');
  }
  const number = (await t.octokit(owner.token).rest.pulls.create({ owner: owner.login, repo: clone.repo, head: 'feature', base: 'main', title: 'Feature' })).data.number;
  return { owner, repo: clone.repo, number, clone };
}

async function writerOf(pr: Pr): Promise<CreatedUser> {
  const user = await createUser(t);
  await addCollaborator(t, pr.owner.token, { owner: pr.owner.login, repo: pr.repo }, user, 'push');
  return user;
}

const pull = async (pr: Pr) => (await t.octokit(pr.owner.token).rest.pulls.get({ owner: pr.owner.login, repo: pr.repo, pull_number: pr.number })).data;
const approve = (pr: Pr, user: CreatedUser) =>
  t.octokit(user.token).rest.pulls.createReview({ owner: pr.owner.login, repo: pr.repo, pull_number: pr.number, event: 'APPROVE' });
const merge = (pr: Pr) => t.octokit(pr.owner.token).rest.pulls.merge({ owner: pr.owner.login, repo: pr.repo, pull_number: pr.number });
const protect = (pr: Pr, rest: Record<string, unknown>) =>
  t.octokit(pr.owner.token).rest.repos.updateBranchProtection({ owner: pr.owner.login, repo: pr.repo, branch: 'main', ...OPEN, required_pull_request_reviews: null, ...rest });

describe('approvals count from reviewers with write access only', () => {
  test('an approval by a reader does not count; a writer\'s does', async () => {
    const pr = await pullWith();
    await protect(pr, { required_pull_request_reviews: { required_approving_review_count: 1 }, enforce_admins: true });
    // Anyone may review a public repository's pull request; without write access it does not count.
    const reader = await createUser(t);
    await approve(pr, reader);
    assert.equal((await pull(pr)).mergeable_state, 'blocked');
    assert.equal((await failsWith(merge(pr), 405)).message, 'At least 1 approving review is required by reviewers with write access.');
    await approve(pr, await writerOf(pr));
    assert.equal((await pull(pr)).mergeable_state, 'clean');
    assert.equal((await merge(pr)).status, 200);
  });
});

describe('require_code_owner_reviews', () => {
  test('a user named in .github/CODEOWNERS must approve the files they own', async () => {
    const pr0 = await pullWith();
    const alice = await writerOf(pr0);
    const bob = await writerOf(pr0);
    // CODEOWNERS on main after the pull request was opened: the base branch's file is read at merge time.
    await commitFiles(pr0.clone, { '.github/CODEOWNERS': `# owners\n*.md @${pr0.owner.login}\n*.txt @${alice.login}\n` }, 'Code owners');
    await push(pr0.clone, 'main');
    await protect(pr0, { required_pull_request_reviews: { required_approving_review_count: 1, require_code_owner_reviews: true }, enforce_admins: true });
    await approve(pr0, bob);
    const state = await pull(pr0);
    assert.equal(state.mergeable_state, 'blocked');
    assert.equal((await failsWith(merge(pr0), 405)).message, `Waiting on code owner review from ${alice.login}.`);
    await approve(pr0, alice);
    assert.equal((await pull(pr0)).mergeable_state, 'clean');
    assert.equal((await merge(pr0)).status, 200);
  });

  test('a team named as @org/slug: any member with write access satisfies it', async () => {
    const org = await createOrgWithOwner(t);
    const member = await addMember(t, org);
    const kit = t.octokit(org.owner.token);
    const team = await createTeam(t, org.owner.token, org.login, { maintainers: [member.login] });
    const repo = (await kit.rest.repos.createInOrg({ org: org.login, name: 'owned', auto_init: true })).data.name;
    // Members write through the organization's base role (Wharf has no team repository grants over REST yet).
    await kit.rest.orgs.update({ org: org.login, default_repository_permission: 'write' });
    const put = (path: string, branch: string, content: string) => kit.rest.repos.createOrUpdateFileContents({
      owner: org.login, repo, path, branch, message: `Add ${path}`, content: Buffer.from(content).toString('base64'),
    });
    await put('CODEOWNERS', 'main', `/src/ @${org.login}/${team.slug}\n`);
    const main = (await kit.rest.git.getRef({ owner: org.login, repo, ref: 'heads/main' })).data.object.sha;
    await kit.rest.git.createRef({ owner: org.login, repo, ref: 'refs/heads/feature', sha: main });
    await put('src/a.txt', 'feature', 'a\n');
    const number = (await kit.rest.pulls.create({ owner: org.login, repo, head: 'feature', base: 'main', title: 'Owned' })).data.number;
    await kit.rest.repos.updateBranchProtection({
      owner: org.login, repo, branch: 'main', ...OPEN, enforce_admins: true,
      required_pull_request_reviews: { required_approving_review_count: 0, require_code_owner_reviews: true },
    });
    const get = async () => (await kit.rest.pulls.get({ owner: org.login, repo, pull_number: number })).data;
    assert.equal((await get()).mergeable_state, 'blocked');
    const e = await failsWith(kit.rest.pulls.merge({ owner: org.login, repo, pull_number: number }), 405);
    assert.equal(e.message, `Waiting on code owner review from @${org.login}/${team.slug}.`);
    await t.octokit(member.token).rest.pulls.createReview({ owner: org.login, repo, pull_number: number, event: 'APPROVE' });
    assert.equal((await get()).mergeable_state, 'clean');
  });
});

interface ThreadsAnswer {
  repository: { pullRequest: { reviewThreads: { totalCount: number; nodes: { id: string; isResolved: boolean; path: string; viewerCanResolve: boolean; resolvedBy: { login: string } | null; comments: { totalCount: number } }[] } } };
}

describe('required_conversation_resolution', () => {
  test('an unresolved thread blocks the merge until resolveReviewThread; unresolving blocks again', async () => {
    const pr = await pullWith();
    const writer = await writerOf(pr);
    const outsider = await createUser(t);
    await protect(pr, { required_conversation_resolution: true, enforce_admins: true });
    const head = (await pull(pr)).head.sha;
    const kit = t.octokit(writer.token);
    const root = await kit.rest.pulls.createReviewComment({ owner: pr.owner.login, repo: pr.repo, pull_number: pr.number, body: 'Why TWO?', commit_id: head, path: 'app.txt', line: 2, side: 'RIGHT' });
    await kit.rest.pulls.createReplyForReviewComment({ owner: pr.owner.login, repo: pr.repo, pull_number: pr.number, comment_id: root.data.id, body: 'And again?' });
    assert.equal((await pull(pr)).mergeable_state, 'blocked');
    assert.equal((await failsWith(merge(pr), 405)).message, 'All comments must be resolved.');

    const threads = async (token: string) => (await gql(t, token)<ThreadsAnswer>(
      `query($o: String!, $r: String!, $n: Int!) { repository(owner: $o, name: $r) { pullRequest(number: $n) {
        reviewThreads(first: 10) { totalCount nodes { id isResolved path viewerCanResolve resolvedBy { login } comments(first: 10) { totalCount } } } } } }`,
      { o: pr.owner.login, r: pr.repo, n: pr.number },
    )).repository.pullRequest.reviewThreads;
    const listed = await threads(pr.owner.token);
    assert.equal(listed.totalCount, 1);
    const [thread] = listed.nodes;
    assert.deepEqual({ ...thread!, id: undefined }, { id: undefined, isResolved: false, path: 'app.txt', viewerCanResolve: true, resolvedBy: null, comments: { totalCount: 2 } });
    assert.equal((await threads(outsider.token)).nodes[0]!.viewerCanResolve, false);

    const resolve = (token: string, name: 'resolveReviewThread' | 'unresolveReviewThread') => gql(t, token)<Record<string, { thread: { isResolved: boolean } }>>(
      `mutation($id: ID!) { ${name}(input: { threadId: $id }) { thread { isResolved } } }`, { id: thread!.id });
    const refused = await graphqlErrors(resolve(outsider.token, 'resolveReviewThread'));
    assert.equal(refused.errors[0]?.type, 'FORBIDDEN');
    assert.equal((await resolve(writer.token, 'resolveReviewThread')).resolveReviewThread!.thread.isResolved, true);
    const after = (await threads(pr.owner.token)).nodes[0]!;
    assert.equal(after.isResolved, true);
    assert.equal(after.resolvedBy?.login, writer.login);
    assert.equal((await pull(pr)).mergeable_state, 'clean');
    const events = (await listEvents(t.server.ctx, { event: 'pull_request_review_thread' })).filter((e) => (e.payload.thread as { node_id: string }).node_id === thread!.id);
    assert.deepEqual(events.map((e) => e.action), ['resolved']);

    assert.equal((await resolve(pr.owner.token, 'unresolveReviewThread')).unresolveReviewThread!.thread.isResolved, false);
    assert.equal((await pull(pr)).mergeable_state, 'blocked');
    const row = await t.server.ctx.db.selectFrom('review_thread_resolutions').selectAll().where('comment_id', '=', root.data.id).executeTakeFirst();
    assert.equal(row, undefined);
  });
});

describe('dismiss_stale_reviews', () => {
  test('a push to the head dismisses approvals of earlier commits, and the merge is blocked again', async () => {
    const pr = await pullWith();
    const writer = await writerOf(pr);
    await protect(pr, { required_pull_request_reviews: { required_approving_review_count: 1, dismiss_stale_reviews: true }, enforce_admins: true });
    const review = (await approve(pr, writer)).data;
    assert.equal((await pull(pr)).mergeable_state, 'clean');
    await checkout(pr.clone, 'feature');
    await commitFiles(pr.clone, { 'more.txt': 'more\n' }, 'More work');
    await push(pr.clone, 'feature');
    await checkout(pr.clone, 'main');
    const reviews = (await t.octokit(pr.owner.token).rest.pulls.listReviews({ owner: pr.owner.login, repo: pr.repo, pull_number: pr.number })).data;
    assert.deepEqual(reviews.map((r) => [r.id, r.state]), [[review.id, 'DISMISSED']]);
    assert.equal((await pull(pr)).mergeable_state, 'blocked');
    const dismissed = (await listEvents(t.server.ctx, { event: 'pull_request_review' })).filter((e) => e.action === 'dismissed' && (e.payload.review as { id: number }).id === review.id);
    assert.equal(dismissed.length, 1);
    // The issue timeline's review_dismissed names the commit whose push made it stale, and has no message.
    const { data: timeline } = await t.octokit(pr.owner.token).rest.issues.listEvents({ owner: pr.owner.login, repo: pr.repo, issue_number: pr.number });
    const event = timeline.find((e) => e.event === 'review_dismissed') as { dismissed_review: unknown } | undefined;
    assert.deepEqual(event?.dismissed_review, { state: 'approved', review_id: review.id, dismissal_message: null, dismissal_commit_id: (await pull(pr)).head.sha });
  });
});

describe('require_last_push_approval', () => {
  test('the latest push needs an approval of the head by someone other than its pusher', async () => {
    const pr = await pullWith();
    const [pusher, other] = [await writerOf(pr), await writerOf(pr)];
    await protect(pr, { required_pull_request_reviews: { required_approving_review_count: 1, require_last_push_approval: true }, enforce_admins: true });
    const rule = await t.octokit(pr.owner.token).rest.repos.getBranchProtection({ owner: pr.owner.login, repo: pr.repo, branch: 'main' });
    assert.equal(rule.data.required_pull_request_reviews?.require_last_push_approval, true);
    const data = await gql(t, pr.owner.token)<{ repository: { ref: { branchProtectionRule: { requireLastPushApproval: boolean } } } }>(
      `query($o: String!, $r: String!) { repository(owner: $o, name: $r) { ref(qualifiedName: "refs/heads/main") { branchProtectionRule { requireLastPushApproval } } } }`,
      { o: pr.owner.login, r: pr.repo },
    );
    assert.equal(data.repository.ref.branchProtectionRule.requireLastPushApproval, true);
    // Opened from a branch the owner pushed: any writer's approval of the head will do.
    await approve(pr, pusher);
    assert.equal((await pull(pr)).mergeable_state, 'clean');

    // The approver pushes to the head: their earlier approval is of another commit, and a
    // new one of their own push does not count.
    const theirs = await cloneAs(t, pr.owner.login, pr.repo, pusher);
    await checkout(theirs, 'feature');
    await commitFiles(theirs, { 'late.txt': 'late\n' }, 'Late change');
    await push(theirs, 'feature');
    assert.equal((await pull(pr)).mergeable_state, 'blocked');
    await approve(pr, pusher);
    assert.equal((await pull(pr)).mergeable_state, 'blocked');
    assert.equal((await failsWith(merge(pr), 405)).message, 'New changes require approval from someone other than the last pusher.');

    await approve(pr, other);
    assert.equal((await pull(pr)).mergeable_state, 'clean');
    assert.equal((await merge(pr)).data.merged, true);
  });

  test('without the setting, the pusher\'s own approval of their push is enough', async () => {
    const pr = await pullWith();
    const pusher = await writerOf(pr);
    await protect(pr, { required_pull_request_reviews: { required_approving_review_count: 1 }, enforce_admins: true });
    const theirs = await cloneAs(t, pr.owner.login, pr.repo, pusher);
    await checkout(theirs, 'feature');
    await commitFiles(theirs, { 'late.txt': 'late\n' }, 'Late change');
    await push(theirs, 'feature');
    await approve(pr, pusher);
    assert.equal((await pull(pr)).mergeable_state, 'clean');
  });
});
