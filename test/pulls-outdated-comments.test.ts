// Review comments follow the head: after a real git push to the pull request's branch, a
// comment on a line the push left alone moves with it (position, line, commit_id), one on
// a line the push changed is outdated (REST position and line null, original_* kept;
// GraphQL outdated and isOutdated; the conversation's "Outdated" badge), and a file
// comment never is. A later push leaves an outdated comment outdated. A change of base
// branch repositions too.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { checkout, commitFiles, push, repoWithFeature, type Clone } from './factories/pulls.ts';
import { gql } from './helpers/graphql.ts';
import { BROWSER, WebClient } from './helpers/web.ts';

const lines = (...xs: string[]) => xs.map((x) => `${x}\n`).join('');
const NOTES = lines('l1', 'l2', 'l3', 'l4', 'l5', 'l6', 'l7', 'l8', 'l9', 'l10');

interface ThreadNode {
  isOutdated: boolean;
  line: number | null;
  originalLine: number | null;
  path: string;
  comments: { nodes: { databaseId: number; outdated: boolean; line: number | null; originalLine: number | null; commit: { oid: string }; originalCommit: { oid: string } }[] };
}

describe('review comments outdated by pushes', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let clone: Clone;
  let repo: string;
  let number: number;
  let firstHead: string;
  /** On notes.txt line 8 (kept), line 3 (changed), app.txt's old line 2 (LEFT, file untouched), the file notes.txt. */
  const ids = { kept: 0, changed: 0, reply: 0, left: 0, file: 0, range: 0, brokenRange: 0 };

  const comment = async (id: number) => (await t.octokit(alice.token).rest.pulls.getReviewComment({ owner: alice.login, repo, comment_id: id })).data;
  const threads = async () => (await gql(t, alice.token)<{ repository: { pullRequest: { reviewThreads: { nodes: ThreadNode[] } } } }>(
    `query($o: String!, $r: String!, $n: Int!) { repository(owner: $o, name: $r) { pullRequest(number: $n) { reviewThreads(first: 10) { nodes {
      isOutdated line originalLine path
      comments(first: 10) { nodes { databaseId outdated line originalLine commit { oid } originalCommit { oid } } } } } } } }`,
    { o: alice.login, r: repo, n: number },
  )).repository.pullRequest.reviewThreads.nodes;
  const threadOf = (nodes: ThreadNode[], id: number) => nodes.find((n) => n.comments.nodes[0]!.databaseId === id)!;
  const headOf = async () => (await t.octokit(alice.token).rest.pulls.get({ owner: alice.login, repo, pull_number: number })).data.head.sha;

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    const made = await repoWithFeature(t, alice);
    clone = made.clone;
    repo = clone.repo;
    await checkout(clone, 'feature');
    firstHead = await commitFiles(clone, { 'notes.txt': NOTES }, 'Notes');
    await push(clone, 'feature');
    const kit = t.octokit(alice.token);
    const { data: pull } = await kit.rest.pulls.create({ owner: alice.login, repo, head: 'feature', base: 'main', title: 'Feature' });
    number = pull.number;
    assert.equal(pull.head.sha, firstHead);
    const make = async (placement: Record<string, unknown>, body: string) => (await kit.rest.pulls.createReviewComment({
      owner: alice.login, repo, pull_number: number, commit_id: firstHead, body, ...placement,
    } as Parameters<typeof kit.rest.pulls.createReviewComment>[0])).data;
    const kept = await make({ path: 'notes.txt', line: 8, side: 'RIGHT' }, 'On l8');
    assert.equal(kept.position, 8, 'an added file: position is the line');
    ids.kept = kept.id;
    ids.changed = (await make({ path: 'notes.txt', line: 3, side: 'RIGHT' }, 'On l3')).id;
    ids.reply = (await kit.rest.pulls.createReplyForReviewComment({ owner: alice.login, repo, pull_number: number, comment_id: ids.changed, body: 'Agreed' })).data.id;
    const left = await make({ path: 'app.txt', line: 2, side: 'LEFT' }, 'On the old two');
    assert.equal(left.position, 2);
    ids.left = left.id;
    ids.file = (await make({ path: 'notes.txt', subject_type: 'file' }, 'On the file')).id;
    ids.range = (await make({ path: 'notes.txt', start_line: 5, line: 6, side: 'RIGHT' }, 'On l5 to l6')).id;
    ids.brokenRange = (await make({ path: 'notes.txt', start_line: 2, line: 4, side: 'RIGHT' }, 'On l2 to l4')).id;

    // Two lines above l8 and a changed l3; app.txt untouched.
    await commitFiles(clone, { 'notes.txt': lines('new1', 'new2', 'l1', 'l2', 'L3', 'l4', 'l5', 'l6', 'l7', 'l8', 'l9', 'l10') }, 'Rework notes');
    await push(clone, 'feature');
  });
  after(async () => { await t?.close(); });

  test('a comment on an unchanged line moves with the push: position, line and commit_id; original_* stay', async () => {
    const head = await headOf();
    assert.notEqual(head, firstHead, 'the push moved the head');
    const c = await comment(ids.kept);
    assert.deepEqual([c.position, c.line, c.side, c.commit_id], [10, 10, 'RIGHT', head]);
    assert.deepEqual([c.original_position, c.original_line, c.original_commit_id], [8, 8, firstHead]);
    const left = await comment(ids.left);
    assert.deepEqual([left.position, left.line, left.side, left.commit_id], [2, 2, 'LEFT', head], 'the old side of an untouched file stays');
    const file = await comment(ids.file);
    assert.equal(file.subject_type, 'file');
    const t1 = await threads();
    assert.deepEqual([threadOf(t1, ids.kept).isOutdated, threadOf(t1, ids.kept).line, threadOf(t1, ids.kept).originalLine], [false, 10, 8]);
    assert.equal(threadOf(t1, ids.file).isOutdated, false, 'a file comment is never outdated');
    assert.equal(threadOf(t1, ids.left).isOutdated, false);
  });

  test('a comment on a changed line is outdated, its reply with it; original_* kept, commit_id the head it was last on', async () => {
    for (const id of [ids.changed, ids.reply]) {
      const c = await comment(id);
      assert.deepEqual([c.position, c.line, c.commit_id], [null, null, firstHead], `comment ${id}`);
      assert.deepEqual([c.original_position, c.original_line, c.original_commit_id, c.side], [3, 3, firstHead, 'RIGHT']);
      assert.match(c.diff_hunk, /\+l3$/, 'the diff hunk of when it was made');
    }
    const thread = threadOf(await threads(), ids.changed);
    assert.equal(thread.isOutdated, true);
    assert.deepEqual([thread.line, thread.originalLine], [null, 3]);
    assert.deepEqual(thread.comments.nodes.map((n) => [n.outdated, n.line, n.originalLine, n.commit.oid, n.originalCommit.oid]),
      [[true, null, 3, firstHead, firstHead], [true, null, 3, firstHead, firstHead]]);
  });

  test('a range moves whole, and one with a changed line inside is outdated with its start line', async () => {
    const range = await comment(ids.range);
    assert.deepEqual([range.start_line, range.line, range.original_start_line, range.original_line], [7, 8, 5, 6]);
    const broken = await comment(ids.brokenRange);
    assert.deepEqual([broken.position, broken.start_line, broken.line, broken.original_start_line, broken.original_line], [null, null, null, 2, 4]);
  });

  test('the conversation shows the Outdated badge on the outdated thread only', async () => {
    const html = (await new WebClient(t).get(`/${alice.login}/${repo}/pull/${number}`, { accept: BROWSER })).body;
    const copy = (id: number) => {
      const start = html.search(new RegExp(`<(div|details) [^>]*id="conversation-thread-${id}"`));
      assert.ok(start >= 0, `thread ${id} in the conversation`);
      const next = html.slice(start + 1).search(/<(div|details) [^>]*class="review-thread"/);
      return next < 0 ? html.slice(start) : html.slice(start, start + 1 + next);
    };
    assert.match(copy(ids.changed), /data-badge="outdated"/);
    for (const id of [ids.kept, ids.left, ids.file]) assert.doesNotMatch(copy(id), /data-badge="outdated"/, `thread ${id}`);
    // Files changed: the moved comment at its new line, the outdated one below the file's diff.
    assert.match(html, new RegExp(`<article id="discussion_r${ids.kept}"[^>]*data-line="10"`));
    assert.match(/<div class="outdated-comments">[\s\S]*?(?=<\/section>)/.exec(html)?.[0] ?? '', new RegExp(`id="discussion_r${ids.changed}"`));
  });

  test('a later push moves the placed comments again and leaves the outdated one outdated, even when its line comes back', async () => {
    const head = await commitFiles(clone, { 'notes.txt': lines('new1', 'l1', 'l2', 'l3', 'l4', 'l5', 'l6', 'l7', 'l8', 'l9', 'l10') }, 'l3 again, one line fewer');
    await push(clone, 'feature');
    assert.equal(await headOf(), head);
    const kept = await comment(ids.kept);
    assert.deepEqual([kept.position, kept.line, kept.commit_id, kept.original_line], [9, 9, head, 8]);
    const changed = await comment(ids.changed);
    assert.deepEqual([changed.position, changed.line, changed.commit_id], [null, null, firstHead]);
  });

  test('changing the base branch repositions against the new diff', async () => {
    // A base at the pull request's first commit of notes: the diff is now from there, so
    // notes.txt shows only its first lines (not l8) and app.txt is not in it at all.
    await push(clone, `${firstHead}:refs/heads/other`);
    await t.octokit(alice.token).rest.pulls.update({ owner: alice.login, repo, pull_number: number, base: 'other' });
    const head = await headOf();
    for (const id of [ids.kept, ids.left]) {
      const c = await comment(id);
      assert.deepEqual([c.position, c.line, c.commit_id], [null, null, head], `comment ${id} is outdated, last placed against the head`);
    }
    const nodes = await threads();
    assert.deepEqual([ids.kept, ids.left, ids.file].map((id) => threadOf(nodes, id).isOutdated), [true, true, false]);
  });
});
