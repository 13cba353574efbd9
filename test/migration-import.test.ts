// Importing migration archives: a round trip (export from server A through the API,
// import into a fresh server B through the site-admin endpoint and once through the
// CLI) that answers the same through the API (reviews, review comments and their
// reactions, issue timelines, classic projects, releases with their assets' bytes and
// teams' access to repositories included) and serves the same refs; name conflicts skipped or renamed and reported; bad
// archives (not gzip, a path-traversal entry, no schema.json, an unknown version, a
// record of any kind missing what the import needs) refused with 422 and nothing written; an import failing half-way taken back out
// whole, a repository failing after its git data went in leaving nothing on disk; site admins only.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './helpers/server.ts';
import { entriesOf, packOf, type Entry } from './helpers/tar-archives.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addMember, createOrgWithOwner, createTeam, type CreatedOrg } from './factories/orgs.ts';
import { checkout, cloneAs, commitFiles, push } from './factories/pulls.ts';
import { cloneUrl, gitOk, tempDir } from './helpers/git.ts';
import { requestJson } from './helpers/json-request.ts';
import { programArgs } from './helpers/programs.ts';

/** Release assets' bytes, by name. */
const ASSETS: Record<string, Buffer> = {
  'manifest.bin': Buffer.from([0, 1, 2, 255, 254, 10, 13, 0, 42]), 'notes.txt': Buffer.from('stow below deck\n'), 'plan.bin': Buffer.from([7, 7, 0, 128]),
};

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
type Json = Record<string, unknown>;

const json = (o: unknown) => ({ header: { name: '', type: 'file' as const, mode: 0o644 }, body: Buffer.from(JSON.stringify(o)) });

async function startImport(t: TestServer, bytes: Buffer, query = '', token = ADMIN_TOKEN) {
  const res = await t.request(`/admin/migrations/imports${query}`, { method: 'POST', token, headers: { 'content-type': 'application/gzip' }, body: new Uint8Array(bytes) });
  return { status: res.status, body: await res.json() as Json };
}

async function importAndWait(t: TestServer, bytes: Buffer, query = ''): Promise<Json> {
  const started = await startImport(t, bytes, query);
  assert.equal(started.status, 202, JSON.stringify(started.body));
  await t.server.migrationImports.idle();
  return (await requestJson(t, 'GET', `/admin/migrations/imports/${started.body.id}`, ADMIN_TOKEN)).body;
}

/** An API answer with what differs between two servers by nature taken out: ids (organization_id …), node ids, URLs. */
function comparable(v: unknown, drop: readonly string[] = []): unknown {
  if (Array.isArray(v)) return v.map((x) => comparable(x, drop));
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v as Json)
    .filter(([k, x]) => k !== 'id' && k !== 'node_id' && k !== '_links' && !k.endsWith('url') && !(k.endsWith('_id') && typeof x === 'number') && !drop.includes(k))
    .map(([k, x]) => [k, comparable(x, drop)]));
}

async function get(t: TestServer, p: string): Promise<unknown> {
  const r = await requestJson(t, 'GET', p, ADMIN_TOKEN);
  assert.equal(r.status, 200, `${p}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/**
 * The refs a repository serves, but for refs/pull/{n}/merge: the test merge of an open
 * pull request is made again whenever its base or head moves, with that moment's date.
 */
async function refs(t: TestServer, owner: string, repo: string): Promise<string[]> {
  const out = await gitOk(['ls-remote', cloneUrl(t.baseUrl, owner, repo, 'admin', ADMIN_TOKEN)]);
  return out.split('\n').filter((l) => l && !/refs\/pull\/\d+\/merge$/.test(l)).sort();
}

describe('migration archive imports', () => {
  let a: TestServer;
  let b: TestServer;
  /**
   * An empty server for the imports that must leave nothing behind, shared by those tests
   * (one server start instead of three): each checks that no repository, organization,
   * user, git directory or asset file of the archive is there after it, so what one of
   * them left would show in the next.
   */
  let fresh: TestServer;
  let org: CreatedOrg;
  let member: CreatedUser;
  let archive: Buffer;
  const repos = ['cargo', 'ledger'];

  before(async () => {
    [a, b, fresh] = await Promise.all([startTestServer(), startTestServer(), startTestServer()]);
    org = await createOrgWithOwner(a);
    member = await addMember(a, org, 'member');
    const owner = a.octokit(org.owner.token);
    const other = a.octokit(member.token);
    const team = await createTeam(a, org.owner.token, org.login, { name: 'Stevedores', privacy: 'closed' });
    await owner.rest.teams.addOrUpdateMembershipForUserInOrg({ org: org.login, team_slug: team.slug, username: member.login });
    // Private, and the ledger is the team's (made with team_id, the one way a team gets a repository here: pull).
    for (const name of repos) {
      await owner.rest.repos.createInOrg({ org: org.login, name, auto_init: true, private: true, description: `the ${name}`, ...(name === 'ledger' ? { team_id: team.id } : {}) });
    }
    const work = await cloneAs(a, org.login, 'cargo', org.owner);
    await checkout(work, 'feature', true);
    await commitFiles(work, { 'crate.txt': 'one crate\n' }, 'Add a crate');
    await push(work, 'feature');
    await checkout(work, 'main');
    await checkout(work, 'hotfix', true);
    await commitFiles(work, { 'fix.txt': 'fixed\n' }, 'Fix the hold');
    await push(work, 'hotfix');
    const ledger = await cloneAs(a, org.login, 'ledger', org.owner);
    await commitFiles(ledger, { 'entries.txt': 'one\ntwo\n' }, 'Two entries');
    await push(ledger, 'main');

    const repo = 'cargo';
    await owner.rest.issues.createLabel({ owner: org.login, repo, name: 'heavy', color: 'ff0000', description: 'Lift with care' });
    const { data: ms } = await owner.rest.issues.createMilestone({ owner: org.login, repo, title: 'Voyage 1', description: 'first', due_on: '2030-01-01T00:00:00Z' });
    const { data: issue } = await owner.rest.issues.create({ owner: org.login, repo, title: 'Crate is leaking', body: 'Water everywhere', labels: ['heavy'], milestone: ms.number, assignees: [org.owner.login] });
    const { data: comment } = await other.rest.issues.createComment({ owner: org.login, repo, issue_number: issue.number, body: 'Seal it' });
    await owner.rest.issues.createComment({ owner: org.login, repo, issue_number: issue.number, body: 'Sealed' });
    await owner.rest.reactions.createForIssue({ owner: org.login, repo, issue_number: issue.number, content: 'rocket' });
    await other.rest.reactions.createForIssue({ owner: org.login, repo, issue_number: issue.number, content: '+1' });
    await owner.rest.reactions.createForIssueComment({ owner: org.login, repo, comment_id: comment.id, content: 'heart' });
    const { data: closed } = await other.rest.issues.create({ owner: org.login, repo, title: 'Wrong port' });
    await owner.rest.issues.update({ owner: org.login, repo, issue_number: closed.number, state: 'closed', state_reason: 'not_planned' });
    // Timeline events beyond those of creating and closing: renamed, unlabeled and labeled again, unassigned, demilestoned, locked and unlocked, reopened.
    const ref = { owner: org.login, repo, issue_number: closed.number };
    await owner.rest.issues.update({ ...ref, title: 'Wrong port of call', state: 'open', labels: ['heavy'], milestone: ms.number, assignees: [org.owner.login] });
    await owner.rest.issues.removeLabel({ ...ref, name: 'heavy' });
    await owner.rest.issues.update({ ...ref, milestone: null, assignees: [] });
    await owner.rest.issues.lock({ ...ref, lock_reason: 'resolved' });
    await owner.rest.issues.unlock(ref);
    await owner.rest.issues.update({ ...ref, state: 'closed', state_reason: 'not_planned' });
    const { data: pull } = await owner.rest.pulls.create({ owner: org.login, repo, title: 'Load the crate', head: 'feature', base: 'main', body: 'Please' });
    await other.rest.issues.createComment({ owner: org.login, repo, issue_number: pull.number, body: 'Looks sound' });
    // Review requests: the member and a team asked, the team's request withdrawn (review_requested, review_request_removed).
    const riggers = await createTeam(a, org.owner.token, org.login, { name: 'Riggers', privacy: 'closed' });
    await owner.rest.teams.addOrUpdateRepoPermissionsInOrg({ org: org.login, team_slug: riggers.slug, owner: org.login, repo, permission: 'push' });
    await owner.rest.pulls.requestReviewers({ owner: org.login, repo, pull_number: pull.number, reviewers: [member.login], team_reviewers: [riggers.slug] });
    await owner.rest.pulls.removeRequestedReviewers({ owner: org.login, repo, pull_number: pull.number, reviewers: [], team_reviewers: [riggers.slug] });
    // Reviews: changes requested with a line comment, a reply to it (a review of its own), then an approval.
    const { data: review } = await other.rest.pulls.createReview({
      owner: org.login, repo, pull_number: pull.number, event: 'REQUEST_CHANGES', body: 'Lash it down', comments: [{ path: 'crate.txt', line: 1, body: 'Too loose' }],
    });
    const { data: [lineComment] } = await other.rest.pulls.listCommentsForReview({ owner: org.login, repo, pull_number: pull.number, review_id: review.id });
    await owner.rest.pulls.createReplyForReviewComment({ owner: org.login, repo, pull_number: pull.number, comment_id: lineComment!.id, body: 'Tightened' });
    await owner.rest.reactions.createForPullRequestReviewComment({ owner: org.login, repo, comment_id: lineComment!.id, content: 'eyes' });
    await other.rest.reactions.createForPullRequestReviewComment({ owner: org.login, repo, comment_id: lineComment!.id, content: 'confused' });
    await other.rest.pulls.createReview({ owner: org.login, repo, pull_number: pull.number, event: 'APPROVE' });
    // The changes requested are dismissed (review_dismissed, naming the review).
    await owner.rest.pulls.dismissReview({ owner: org.login, repo, pull_number: pull.number, review_id: review.id, message: 'Lashed since' });
    const { data: fix } = await owner.rest.pulls.create({ owner: org.login, repo, title: 'Fix the hold', head: 'hotfix', base: 'main' });
    await owner.rest.pulls.merge({ owner: org.login, repo, pull_number: fix.number });
    const { data: books } = await owner.rest.issues.create({ owner: org.login, repo: 'ledger', title: 'Balance the books' });
    // Classic projects: the cargo's board (a note, the first issue moved along, an archived note) and the organization's (a ledger issue).
    const call = (route: string, params: Json) => owner.request(route, params).then((r) => r.data as Json);
    const board = await call('POST /repos/{owner}/{repo}/projects', { owner: org.login, repo, name: 'Voyages', body: 'Where the cargo goes' });
    const todo = await call('POST /projects/{project_id}/columns', { project_id: board.id, name: 'To do' });
    const done = await call('POST /projects/{project_id}/columns', { project_id: board.id, name: 'Done' });
    await call('POST /projects/columns/{column_id}/cards', { column_id: todo.id, note: 'Check the hold' });
    const card = await call('POST /projects/columns/{column_id}/cards', { column_id: todo.id, content_id: issue.id, content_type: 'Issue' });
    await call('POST /projects/columns/cards/{card_id}/moves', { card_id: card.id, position: 'top', column_id: done.id });
    const old = await call('POST /projects/columns/{column_id}/cards', { column_id: done.id, note: 'Last voyage' });
    await call('PATCH /projects/columns/cards/{card_id}', { card_id: old.id, archived: true });
    const fleet = await call('POST /orgs/{org}/projects', { org: org.login, name: 'Fleet', body: 'Every ship' });
    const ports = await call('POST /projects/{project_id}/columns', { project_id: fleet.id, name: 'Ports' });
    await call('POST /projects/columns/{column_id}/cards', { column_id: ports.id, content_id: books.id, content_type: 'Issue' });
    await call('POST /projects/columns/{column_id}/cards', { column_id: ports.id, note: 'Rotterdam' });
    // Releases: published (its tag made at main), a prerelease, a draft (no tag yet).
    const { data: v1 } = await owner.rest.repos.createRelease({ owner: org.login, repo, tag_name: 'v1', name: 'First voyage', body: 'Sailed' });
    await owner.rest.repos.createRelease({ owner: org.login, repo, tag_name: 'v2-rc', target_commitish: 'feature', name: 'Trial run', prerelease: true });
    const { data: v3 } = await owner.rest.repos.createRelease({ owner: org.login, repo, tag_name: 'v3', name: 'Next voyage', body: 'Planned', draft: true });
    // Assets (bytes that are not text), on a published release (one downloaded once: its count travels) and on the draft.
    const upload = (kit: typeof owner, url: string, name: string, bytes: Buffer, type: string, label?: string) => kit.request({
      method: 'POST', url, name, ...(label ? { label } : {}), data: bytes, headers: { 'content-type': type, 'content-length': bytes.length },
    });
    const { data: manifest } = await upload(owner, v1.upload_url, 'manifest.bin', ASSETS['manifest.bin']!, 'application/x-manifest', 'Manifest');
    await upload(owner, v1.upload_url, 'notes.txt', ASSETS['notes.txt']!, 'text/plain');
    await upload(owner, v3.upload_url, 'plan.bin', ASSETS['plan.bin']!, 'application/octet-stream');
    await owner.rest.repos.getReleaseAsset({ owner: org.login, repo, asset_id: (manifest as { id: number }).id, headers: { accept: 'application/octet-stream' } });

    const started = await requestJson(a, 'POST', `/orgs/${org.login}/migrations`, org.owner.token, { repositories: repos });
    assert.equal(started.status, 201);
    await a.server.migrationExports.idle();
    const redirect = await a.request(`/orgs/${org.login}/migrations/${started.body.id}/archive`, { token: org.owner.token, redirect: 'manual' });
    assert.equal(redirect.status, 302);
    archive = Buffer.from(await (await fetch(redirect.headers.get('location')!)).arrayBuffer());
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await fresh?.close();
  });

  test('round trip: a fresh server answers the same for the organization, its repositories and all that is in them', async () => {
    const job = await importAndWait(b, archive);
    assert.equal(job.state, 'imported', String(job.failure));
    assert.deepEqual(job.conflicts, []);
    assert.deepEqual(job.progress, { step: 'done', done: 4, total: 4 });
    assert.deepEqual(job.owner, { login: org.login, type: 'Organization', created: true });
    assert.deepEqual((job.users as { created: string[] }).created.sort(), [org.owner.login, member.login].sort());
    assert.deepEqual((job.repositories as Json[]).map((r) => r.target), repos.map((r) => `${org.login}/${r}`));

    // A repository's size is what its objects take on disk, packed differently by a fetch than by pushes.
    const same = async (p: string, drop: string[] = []) => {
      assert.deepEqual(comparable(await get(b, p), ['size', ...drop]), comparable(await get(a, p), ['size', ...drop]), p);
    };
    // The organization's own record is made anew (its dates are the import's); the rest is as it was.
    await same(`/orgs/${org.login}`, ['created_at', 'updated_at']);
    await same(`/orgs/${org.login}/members?role=admin`);
    await same(`/orgs/${org.login}/members`);
    await same(`/orgs/${org.login}/teams`);
    await same(`/orgs/${org.login}/teams/stevedores/members`);
    await same(`/orgs/${org.login}/repos?sort=full_name`);
    for (const repo of repos) {
      const base = `/repos/${org.login}/${repo}`;
      // Watching is not in the archive: the creator's subscription in A has no counterpart.
      await same(base, ['subscribers_count']);
      await same(`${base}/branches`);
      await same(`${base}/labels`);
      await same(`${base}/milestones?state=all`);
      await same(`${base}/issues?state=all`);
      await same(`${base}/issues/comments`);
      // An open pull request's merge_commit_sha is its test merge, made with the moment's date: compared for merged ones only.
      await same(`${base}/pulls?state=all`, ['merge_commit_sha']);
      const issues = await get(a, `${base}/issues?state=all`) as { number: number; pull_request?: unknown }[];
      for (const i of issues) {
        await same(`${base}/issues/${i.number}`);
        await same(`${base}/issues/${i.number}/comments`);
        await same(`${base}/issues/${i.number}/reactions`);
        // The timeline: the same events, actors, labels, assignees, milestones, renames, reasons and times.
        await same(`${base}/issues/${i.number}/events`);
        if (!i.pull_request) continue;
        await same(`${base}/pulls/${i.number}`, ['merge_commit_sha']);
        await same(`${base}/pulls/${i.number}/reviews`);
        await same(`${base}/pulls/${i.number}/comments`);
      }
      const comments = await get(a, `${base}/issues/comments`) as { id: number }[];
      const imported = await get(b, `${base}/issues/comments`) as { id: number }[];
      for (const [k, c] of comments.entries()) {
        assert.deepEqual(comparable(await get(b, `${base}/issues/comments/${imported[k]!.id}/reactions`)), comparable(await get(a, `${base}/issues/comments/${c.id}/reactions`)));
      }
      assert.deepEqual(await refs(b, org.login, repo), await refs(a, org.login, repo), `${repo} refs`);
    }
    // The repository's event list (newest first, each with its issue) too, and what the second issue's timeline says.
    await same(`/repos/${org.login}/cargo/issues/events`);
    const timeline = await get(b, `/repos/${org.login}/cargo/issues/2/events`) as Json[];
    assert.deepEqual(timeline.map((e) => e.event), [
      'closed', 'renamed', 'reopened', 'milestoned', 'assigned', 'labeled', 'unlabeled', 'demilestoned', 'unassigned', 'locked', 'unlocked', 'closed',
    ]);
    assert.deepEqual(timeline[1]!.rename, { from: 'Wrong port', to: 'Wrong port of call' });
    assert.deepEqual([(timeline[4]!.assignee as Json).login, (timeline[4]!.assigner as Json).login, timeline[9]!.lock_reason], [org.owner.login, org.owner.login, 'resolved']);
    // Reviews and review comments came along, the reply still answering the comment it answered.
    const cargo = `/repos/${org.login}/cargo`;
    await same(`${cargo}/pulls/comments`);
    // So did the reactions to review comments.
    const lineComments = await get(a, `${cargo}/pulls/comments`) as { id: number }[];
    const importedLines = await get(b, `${cargo}/pulls/comments`) as { id: number }[];
    for (const [k, c] of lineComments.entries()) {
      assert.deepEqual(comparable(await get(b, `${cargo}/pulls/comments/${importedLines[k]!.id}/reactions`)), comparable(await get(a, `${cargo}/pulls/comments/${c.id}/reactions`)));
    }
    const reacted = await get(b, `${cargo}/pulls/comments/${importedLines[0]!.id}/reactions`) as { content: string; user: { login: string } }[];
    assert.deepEqual(reacted.map((r) => [r.content, r.user.login]), [['eyes', org.owner.login], ['confused', member.login]]);
    // Releases: the list, each by its tag and the latest answer the same (drafts, prereleases, authors, times).
    await same(`${cargo}/releases`);
    for (const tag of ['v1', 'v2-rc']) await same(`${cargo}/releases/tags/${tag}`);
    await same(`${cargo}/releases/latest`);
    const released = await get(b, `${cargo}/releases`) as { tag_name: string; name: string; body: string | null; draft: boolean; prerelease: boolean; target_commitish: string; author: { login: string } }[];
    assert.deepEqual(released.map((r) => [r.tag_name, r.name, r.body, r.draft, r.prerelease, r.target_commitish, r.author.login]), [
      ['v3', 'Next voyage', 'Planned', true, false, 'main', org.owner.login],
      ['v2-rc', 'Trial run', null, false, true, 'feature', org.owner.login],
      ['v1', 'First voyage', 'Sailed', false, false, 'main', org.owner.login],
    ]);
    assert.equal((await get(b, `${cargo}/releases/latest`) as Json).tag_name, 'v1');
    // Their assets: name, label, content type, uploader, count and times as listed (compared above); the bytes as downloaded.
    type Asset = { id: number; name: string; label: string | null; content_type: string; download_count: number; uploader: { login: string }; browser_download_url: string };
    const assets = (released as unknown as { tag_name: string; assets: Asset[] }[]).flatMap((r) => r.assets.map((x) => ({ tag: r.tag_name, ...x })));
    assert.deepEqual(assets.map((x) => [x.tag, x.name, x.label, x.content_type, x.download_count, x.uploader.login]), [
      ['v3', 'plan.bin', null, 'application/octet-stream', 0, org.owner.login],
      ['v1', 'manifest.bin', 'Manifest', 'application/x-manifest', 1, org.owner.login],
      ['v1', 'notes.txt', null, 'text/plain', 0, org.owner.login],
    ]);
    for (const x of assets) {
      const r = await b.request(`${cargo}/releases/assets/${x.id}`, { token: ADMIN_TOKEN, headers: { accept: 'application/octet-stream' } });
      assert.equal(r.status, 200, x.name);
      assert.deepEqual(Buffer.from(await r.arrayBuffer()), ASSETS[x.name], x.name);
    }
    const byName = await fetch(assets.find((x) => x.name === 'notes.txt')!.browser_download_url, { headers: { authorization: `token ${ADMIN_TOKEN}` } });
    assert.deepEqual(Buffer.from(await byName.arrayBuffer()), ASSETS['notes.txt']);
    // Classic projects: the repository's and the organization's, their columns and cards (archived ones too) in order.
    const boards = async (t: TestServer, list: string) => {
      const out: unknown[] = [];
      for (const p of await get(t, list) as { id: number }[]) {
        const columns = await get(t, `/projects/${p.id}/columns`) as { id: number }[];
        const cards = [];
        for (const c of columns) cards.push(await get(t, `/projects/columns/${c.id}/cards?archived_state=all`));
        out.push({ project: p, columns, cards });
      }
      // A card's project_id is a string (as upstream's): not the same id on both servers.
      return comparable(out, ['project_id']);
    };
    for (const list of [`${cargo}/projects?state=all`, `/orgs/${org.login}/projects?state=all`]) assert.deepEqual(await boards(b, list), await boards(a, list), list);
    const [fleet] = await get(b, `/orgs/${org.login}/projects`) as { id: number }[];
    const [ports] = await get(b, `/projects/${fleet!.id}/columns`) as { id: number }[];
    const fleetCards = await get(b, `/projects/columns/${ports!.id}/cards`) as { note: string | null; content_url?: string }[];
    assert.deepEqual(fleetCards.map((c) => c.note ?? c.content_url), ['Rotterdam', `${b.baseUrl}/repos/${org.login}/ledger/issues/1`]);
    const cardEvents = (await get(b, `${cargo}/issues/1/events`) as { event: string; project_card?: { column_name: string; previous_column_name?: string; project_url: string } }[])
      .filter((e) => e.project_card);
    assert.deepEqual(cardEvents.map((e) => [e.event, e.project_card!.column_name, e.project_card!.previous_column_name ?? null]),
      [['added_to_project', 'To do', null], ['moved_columns_in_project', 'Done', 'To do']]);
    const importedBoard = (await get(b, `${cargo}/projects`) as { url: string }[])[0]!;
    assert.equal(cardEvents[0]!.project_card!.project_url, importedBoard.url, 'the event names the project made here');
    const reviewed = await get(b, `${cargo}/pulls/3/reviews`) as { state: string; id: number }[];
    assert.deepEqual(reviewed.map((r) => r.state), ['DISMISSED', 'COMMENTED', 'APPROVED']);
    // The review events came along (compared with the source's above): who asked whom, which team, and the dismissal naming the review made here.
    type ReviewEvent = { event: string; review_requester?: { login: string }; requested_reviewer?: { login: string } | null; requested_team?: { slug: string }; dismissed_review?: Json };
    const reviewEvents = (await get(b, `${cargo}/issues/3/events`) as ReviewEvent[]).filter((e) => e.event.startsWith('review_'));
    assert.deepEqual(reviewEvents.map((e) => [e.event, e.review_requester?.login ?? null, e.requested_reviewer?.login ?? null, e.requested_team?.slug ?? null]), [
      ['review_requested', org.owner.login, member.login, null],
      ['review_requested', org.owner.login, null, 'riggers'],
      ['review_request_removed', org.owner.login, null, 'riggers'],
      ['review_dismissed', null, null, null],
    ]);
    assert.deepEqual(reviewEvents[3]!.dismissed_review, { state: 'changes_requested', review_id: reviewed[0]!.id, dismissal_message: 'Lashed since', dismissal_commit_id: null });
    const [first, reply] = await get(b, `${cargo}/pulls/3/comments`) as { id: number; in_reply_to_id?: number; body: string; pull_request_review_id: number }[];
    assert.deepEqual([first!.body, reply!.body, reply!.in_reply_to_id], ['Too loose', 'Tightened', first!.id]);
    assert.equal(first!.pull_request_review_id, reviewed[0]!.id);
    const merged = async (t: TestServer) => (await get(t, `/repos/${org.login}/cargo/pulls/4`) as Json).merge_commit_sha;
    assert.equal(await merged(b), await merged(a));
    assert.match(String(await merged(b)), /^[0-9a-f]{40}$/);
    // The imported git data is in B's search index without a reindex: its code and commits are found.
    await b.server.searchIndex.idle();
    const code = await get(b, `/search/code?q=${encodeURIComponent(`fixed repo:${org.login}/cargo`)}`) as { items: { path: string }[] };
    assert.deepEqual(code.items.map((i) => i.path), ['fix.txt']);
    const commits = await get(b, `/search/commits?q=${encodeURIComponent(`entries repo:${org.login}/ledger`)}`) as { items: { commit: { message: string } }[] };
    assert.deepEqual(commits.items.map((i) => i.commit.message), ['Two entries']);
    // New issues follow on after the imported numbers.
    const next = await requestJson(b, 'POST', `/repos/${org.login}/cargo/issues`, ADMIN_TOKEN, { title: 'After the move' });
    assert.equal(next.body.number, 5);
    // Users are made with their profile and no e-mail address (nobody here vouched for one), password or token.
    const made = await get(b, `/users/${member.login}`) as Json;
    assert.equal(made.email, null);
    assert.equal(made.type, 'User');
    // The team's access to the ledger came along: with no base permission, its member reads the ledger and not the cargo.
    const permissions = async (t: TestServer) => {
      const r = await requestJson(t, 'PATCH', `/orgs/${org.login}`, ADMIN_TOKEN, { default_repository_permission: 'none' });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const out: unknown[] = [];
      for (const repo of repos) out.push((await get(t, `/repos/${org.login}/${repo}/collaborators/${member.login}/permission`) as Json).permission);
      await requestJson(t, 'PATCH', `/orgs/${org.login}`, ADMIN_TOKEN, { default_repository_permission: 'read' });
      return out;
    };
    assert.deepEqual(await permissions(b), await permissions(a));
    assert.deepEqual(await permissions(b), ['none', 'read']);
  });

  test('names taken: repositories skipped by default, renamed on request, and reported; teams merged; organization projects skipped', async () => {
    const skipped = await importAndWait(b, archive);
    assert.equal(skipped.state, 'imported');
    assert.deepEqual(skipped.repositories, []);
    assert.deepEqual((skipped.conflicts as Json[]).map((c) => [c.kind, c.source, c.resolution]), [
      ['team', 'Riggers', 'merged'], ['team', 'Stevedores', 'merged'], ['repository', `${org.login}/cargo`, 'skipped'], ['repository', `${org.login}/ledger`, 'skipped'], ['project', 'Fleet', 'skipped'],
    ]);
    assert.deepEqual((await get(b, `/orgs/${org.login}/projects`) as { name: string }[]).map((p) => p.name), ['Fleet'], 'the organization\'s project not made twice');
    const renamed = await importAndWait(b, archive, '?on_conflict=rename');
    assert.equal(renamed.state, 'imported');
    assert.deepEqual((renamed.repositories as Json[]).map((r) => r.target), [`${org.login}/cargo-1`, `${org.login}/ledger-1`]);
    assert.deepEqual((renamed.conflicts as Json[]).filter((c) => c.kind === 'repository').map((c) => c.target), [`${org.login}/cargo-1`, `${org.login}/ledger-1`]);
    // An archive without the assets' bytes (as exclude_attachments writes it): the releases come, without assets.
    const entries = (await entriesOf(archive)).filter((e) => !e.header.name.startsWith('releases/')).map((e) => (e.header.name === 'releases_000001.json'
      ? { header: e.header, body: Buffer.from(JSON.stringify((JSON.parse(e.body.toString('utf8')) as Json[]).map((r) => ({
        ...r, release_assets: (r.release_assets as Json[]).map((x) => ({ ...x, asset_url: null })),
      })))) } : e));
    const bare = await importAndWait(b, await packOf(entries), '?on_conflict=rename');
    assert.equal(bare.state, 'imported', String(bare.failure));
    const bareReleases = await get(b, `/repos/${org.login}/cargo-2/releases`) as { tag_name: string; assets: unknown[] }[];
    assert.deepEqual(bareReleases.map((r) => [r.tag_name, r.assets.length]), [['v3', 0], ['v2-rc', 0], ['v1', 0]]);
    const issues = await get(b, `/repos/${org.login}/cargo-1/issues?state=all`) as { number: number }[];
    assert.deepEqual(issues.map((i) => i.number).sort(), [1, 2, 3, 4]);
    assert.deepEqual(await refs(b, org.login, 'cargo-1'), await refs(a, org.login, 'cargo'));
  });

  test('bad archives are a 422 with a message; nothing is queued or written', async () => {
    const entries = await entriesOf(archive);
    const withoutSchema = entries.filter((e) => e.header.name !== 'schema.json');
    const traversal: Entry[] = [...entries, { ...json([]), header: { name: '../../escaped.json', type: 'file' as const, mode: 0o644 } }];
    const link: Entry[] = [...entries, { header: { name: 'repositories/x/y.git/objects/info/alternates', type: 'symlink' as const, linkname: '/etc/passwd', mode: 0o777 }, body: Buffer.alloc(0) }];
    const future = entries.map((e) => (e.header.name === 'schema.json' ? { header: e.header, body: Buffer.from('{"version":"2.0.0"}') } : e));
    const badRecord = entries.map((e) => (e.header.name === 'issues_000001.json' ? { header: e.header, body: Buffer.from('[{"title": 3}]') } : e));
    // One record of a kind changed (the rest of the archive as exported).
    const changed = (file: string, change: (records: Json[]) => Json[]) => entries.map((e) => (e.header.name === file
      ? { header: e.header, body: Buffer.from(JSON.stringify(change(JSON.parse(e.body.toString('utf8')) as Json[]))) } : e));
    const noTag = changed('releases_000001.json', ([first, ...rest]) => [{ ...first, tag_name: undefined }, ...rest]);
    const twoTags = changed('releases_000001.json', (rs) => [...rs, { ...rs[0]! }]);
    const badGrant = changed('teams_000001.json', ([first, ...rest]) => [{ ...first, repositories: [{ ...(first!.repositories as Json[])[0], permission: 'owner' }] }, ...rest]);
    const missingAsset = entries.filter((e) => !(e.header.name.startsWith('releases/') && e.header.name.endsWith('/notes.txt')));
    const eventNowhere = changed('issue_events_000001.json', ([first, ...rest]) => [{ ...first, issue: undefined }, ...rest]);
    const badSubject = changed('reactions_000001.json', ([first, ...rest]) => [{ ...first, subject_type: 'commit_comment' }, ...rest]);
    const cases: [string, Buffer, RegExp][] = [
      ['not gzip', Buffer.from('certainly not an archive'), /not a readable \.tar\.gz/],
      ['truncated', archive.subarray(0, Math.floor(archive.length / 2)), /not a readable \.tar\.gz/],
      ['no schema.json', await packOf(withoutSchema), /no schema\.json/],
      ['path traversal', await packOf(traversal), /unsafe entry name/],
      ['a link', await packOf(link), /only files and directories/],
      ['unsupported version', await packOf(future), /unsupported archive schema version "2\.0\.0"/],
      ['a bad record', await packOf(badRecord), /issues\[0\]/],
      ['a release without its tag', await packOf(noTag), /releases\[0\]: "tag_name" must be a non-empty string/],
      ['two releases of one tag', await packOf(twoTags), /two releases of the tag "v1"/],
      ['a team permission unknown here', await packOf(badGrant), /teams\[0\]\.repositories\[0\]: permission "owner" is not one of/],
      ['an asset whose bytes are not in the archive', await packOf(missingAsset), /releases\[0\]\.release_assets\[1\]: asset_url "tarball:\/\/root\/releases\/[^"]+\/notes\.txt" is not a file of the archive/],
      ['a timeline event of no issue', await packOf(eventNowhere), /issue_events\[0\]: "issue" must be a non-empty string/],
      ['a reaction to something else', await packOf(badSubject), /reaction subject_type "commit_comment"/],
      ['empty body', Buffer.alloc(0), /no archive/],
    ];
    for (const [what, bytes, message] of cases) {
      const r = await startImport(fresh, bytes);
      assert.equal(r.status, 422, `${what}: ${JSON.stringify(r.body)}`);
      assert.match(String(r.body.message), message, what);
    }
    const missing = await requestJson(fresh, 'POST', '/admin/migrations/imports?archive_path=/no/such/archive.tar.gz', ADMIN_TOKEN);
    assert.equal(missing.status, 422);
    assert.equal((await requestJson(fresh, 'GET', `/orgs/${org.login}`, ADMIN_TOKEN)).status, 404);
    assert.equal((await requestJson(fresh, 'GET', '/admin/migrations/imports/1', ADMIN_TOKEN)).status, 404, 'no job queued');
    assert.ok(!fs.existsSync(path.join(fresh.dataDir, '..', 'escaped.json')));
    assert.deepEqual(fs.readdirSync(path.join(fresh.dataDir, 'migration-imports')), [], 'no upload left behind');
  });

  test('an import failing half-way is taken back out whole: no repository, organization or user stays', async () => {
    // The second repository's objects are garbage: its git data cannot be fetched, after the first repository went in.
    const entries = (await entriesOf(archive)).map((e) => (/^repositories\/[^/]+\/ledger\.git\/objects\/.+/.test(e.header.name) && e.header.type !== 'directory'
      ? { header: e.header, body: Buffer.from('not an object at all') } : e));
    const job = await importAndWait(fresh, await packOf(entries));
    assert.equal(job.state, 'failed');
    assert.match(String(job.failure), /git fetch .*ledger\.git/);
    assert.deepEqual(job.repositories, []);
    assert.equal((await requestJson(fresh, 'GET', `/repos/${org.login}/cargo`, ADMIN_TOKEN)).status, 404);
    assert.equal((await requestJson(fresh, 'GET', `/orgs/${org.login}`, ADMIN_TOKEN)).status, 404);
    assert.equal((await requestJson(fresh, 'GET', `/users/${member.login}`, ADMIN_TOKEN)).status, 404);
    assert.deepEqual(fs.readdirSync(path.join(fresh.dataDir, 'repos')), [], 'no git directory left');
    assert.deepEqual(fs.readdirSync(path.join(fresh.dataDir, 'release-assets')), [], 'no release asset file left (the cargo\'s went in first)');
  });

  test('a repository failing after its git data went in leaves no git directory or asset file behind, and nothing shows', async () => {
    // A bad record after the repository: a second issue numbered as the first, refused by the database once the cargo's git data is in place.
    const entries = (await entriesOf(archive)).map((e) => (e.header.name === 'issues_000001.json'
      ? { header: e.header, body: Buffer.from(JSON.stringify(((xs: Json[]) => [...xs, { ...xs[0]!, title: 'The same number again' }])(JSON.parse(e.body.toString('utf8')) as Json[]))) } : e));
    const job = await importAndWait(fresh, await packOf(entries));
    assert.equal(job.state, 'failed');
    assert.deepEqual(job.repositories, []);
    assert.equal((await requestJson(fresh, 'GET', `/repos/${org.login}/cargo`, ADMIN_TOKEN)).status, 404);
    assert.equal((await requestJson(fresh, 'GET', `/orgs/${org.login}`, ADMIN_TOKEN)).status, 404);
    assert.equal((await requestJson(fresh, 'GET', `/users/${member.login}`, ADMIN_TOKEN)).status, 404);
    assert.deepEqual(fs.readdirSync(path.join(fresh.dataDir, 'repos')), [], 'no git directory left');
    const assetDir = path.join(fresh.dataDir, 'release-assets');
    assert.deepEqual(fs.existsSync(assetDir) ? fs.readdirSync(assetDir) : [], [], 'no release asset file left');
    // The next repository made here starts empty (on SQLite it takes the id the failed one had, and would find its git data).
    const someone = await createUser(fresh);
    const made = await requestJson(fresh, 'POST', '/user/repos', someone.token, { name: 'blank' });
    assert.equal(made.status, 201);
    assert.deepEqual((await requestJson(fresh, 'GET', `/repos/${someone.login}/blank/branches`, someone.token)).body, []);
  });

  test('site admins only: others get 403, anonymous callers 401', async () => {
    const someone = await createUser(b);
    assert.equal((await startImport(b, archive, '', someone.token)).status, 403);
    assert.equal((await requestJson(b, 'GET', '/admin/migrations/imports/1', someone.token)).status, 403);
    const anonymous = await b.request('/admin/migrations/imports', { method: 'POST', headers: { 'content-type': 'application/gzip' }, body: new Uint8Array(archive) });
    assert.equal(anonymous.status, 401);
  });

  test('the CLI: migrate import ARCHIVE --org NAME shows progress and the report', async () => {
    const file = path.join(tempDir('wharf-import-cli-'), 'archive.tar.gz');
    fs.writeFileSync(file, archive);
    const target = `${org.login}-cli`;
    const env: Record<string, string> = {
      ...Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && !/^(DATABASE_URL|WHARF_|PORT$|HOST$|LOG_LEVEL$)/.test(e[0]))),
      WHARF_DATA_DIR: b.dataDir, LOG_LEVEL: 'silent', WHARF_SSH_PORT: '0',
      ...(b.pgSchema ? { DATABASE_URL: process.env.WHARF_TEST_DATABASE_URL!, WHARF_DATABASE_SCHEMA: b.pgSchema } : {}),
    };
    const cli = (...args: string[]) => new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
      execFile(process.execPath, [...programArgs('cli/main.ts'), ...args], { cwd: ROOT, env }, (err, stdout, stderr) => {
        if (err && typeof err.code !== 'number') return reject(err);
        resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
      });
    });
    const r = await cli('migrate', 'import', file, '--org', target);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /\[#+\] 4\/4 done/);
    assert.match(r.stderr, /imported 2 repositories into/);
    const report = JSON.parse(r.stdout) as Json;
    assert.equal(report.state, 'imported');
    assert.deepEqual((report.repositories as Json[]).map((x) => x.target), repos.map((x) => `${target}/${x}`));
    assert.deepEqual(await refs(b, target, 'ledger'), await refs(a, org.login, 'ledger'));
    assert.equal((await get(b, `/repos/${target}/cargo/issues/1`) as Json).title, 'Crate is leaking');
  });
});
