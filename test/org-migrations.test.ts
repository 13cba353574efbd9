// Organization and user migrations: the lock (pushes and REST writes refused until
// unlocked), the export job's states, the archive file by file (records and a bare git
// repository that clones), the short-lived download address, deleting the archive,
// the wyandotte preview, owners only, bad input.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import { startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addMember, createOrgWithOwner, createTeam, type CreatedOrg } from './factories/orgs.ts';
import { cloneAs, commitFiles, push, checkout, type Clone } from './factories/pulls.ts';
import { git, gitOk, tempDir, cloneUrl } from './helpers/git.ts';
import { requestJson } from './helpers/json-request.ts';
import { repoDir } from '../src/git/repository.ts';

const PREVIEW = { accept: 'application/vnd.service.wyandotte-preview+json' };
/** A release asset's bytes (not text: the archive must carry them as they are). */
const ASSET = Buffer.from([0, 1, 2, 255, 254, 10, 13, 0, 42]);

/** Unpacks a .tar.gz into a fresh directory; answers it and the names of its files. */
async function unpack(bytes: Buffer): Promise<{ dir: string; files: string[] }> {
  const dir = tempDir('wharf-archive-');
  const files: string[] = [];
  const extract = tar.extract();
  extract.on('entry', (header, stream, next) => {
    const target = path.join(dir, header.name);
    if (header.type === 'directory') {
      fs.mkdirSync(target, { recursive: true });
      stream.resume();
      stream.on('end', next);
      return;
    }
    files.push(header.name);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const chunks: Buffer[] = [];
    stream.on('data', (c: unknown) => { chunks.push(c as Buffer); });
    stream.on('end', () => { fs.writeFileSync(target, Buffer.concat(chunks)); next(); });
  });
  await pipeline(Readable.from(bytes), zlib.createGunzip(), extract);
  return { dir, files };
}

const readJson = (dir: string, name: string) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));

describe('organization and user migrations', () => {
  let t: TestServer;
  const clock = new TestClock(Date.now());
  let org: CreatedOrg;
  let member: CreatedUser;
  let work: Clone;
  const repo = 'cargo';

  before(async () => {
    t = await startTestServer({ clock });
    org = await createOrgWithOwner(t);
    member = await addMember(t, org, 'member');
    const kit = t.octokit(org.owner.token);
    await kit.rest.repos.createInOrg({ org: org.login, name: repo, auto_init: true });
    await kit.rest.repos.createInOrg({ org: org.login, name: 'other', auto_init: true });
    await createTeam(t, org.owner.token, org.login, { name: 'Stevedores' });
    work = await cloneAs(t, org.login, repo, org.owner);
    await checkout(work, 'feature', true);
    await commitFiles(work, { 'crate.txt': 'one crate\n' }, 'Add a crate');
    await push(work, 'feature');
    await checkout(work, 'main');
    await kit.rest.issues.createLabel({ owner: org.login, repo, name: 'heavy', color: 'ff0000' });
    const { data: ms } = await kit.rest.issues.createMilestone({ owner: org.login, repo, title: 'Voyage 1' });
    const { data: issue } = await kit.rest.issues.create({ owner: org.login, repo, title: 'Crate is leaking', labels: ['heavy'], milestone: ms.number });
    const { data: comment } = await kit.rest.issues.createComment({ owner: org.login, repo, issue_number: issue.number, body: 'Seal it' });
    await kit.rest.reactions.createForIssue({ owner: org.login, repo, issue_number: issue.number, content: 'rocket' });
    await kit.rest.reactions.createForIssueComment({ owner: org.login, repo, comment_id: comment.id, content: 'heart' });
    const { data: pull } = await kit.rest.pulls.create({ owner: org.login, repo, title: 'Load the crate', head: 'feature', base: 'main' });
    await t.octokit(member.token).rest.pulls.createReview({
      owner: org.login, repo, pull_number: pull.number, event: 'COMMENT', body: 'Checked', comments: [{ path: 'crate.txt', line: 1, body: 'Label it' }],
    });
    const { data: release } = await kit.rest.repos.createRelease({ owner: org.login, repo, tag_name: 'v1', name: 'First voyage', body: 'Sailed' });
    // Classic projects: the organization's (an owner project) and the cargo's, a note card each.
    for (const [route, params, note] of [['POST /orgs/{org}/projects', { org: org.login, name: 'Fleet' }, 'Rotterdam'], ['POST /repos/{owner}/{repo}/projects', { owner: org.login, repo, name: 'Voyages' }, 'Check the hold']] as const) {
      const { data: project } = await kit.request(route, params);
      const { data: column } = await kit.request('POST /projects/{project_id}/columns', { project_id: project.id, name: 'To do' });
      await kit.request('POST /projects/columns/{column_id}/cards', { column_id: column.id, note });
    }
    await kit.request({ method: 'POST', url: release.upload_url, name: 'manifest.bin', label: 'Manifest', data: ASSET, headers: { 'content-type': 'application/x-manifest', 'content-length': ASSET.length } });
  });

  /** Starts an organization export, waits for it and unpacks its archive. */
  async function exported(body: Record<string, unknown>) {
    const started = await requestJson(t, 'POST', `/orgs/${org.login}/migrations`, org.owner.token, body);
    assert.equal(started.status, 201, JSON.stringify(started.body));
    await t.server.migrationExports.idle();
    const base = `/orgs/${org.login}/migrations/${started.body.id}`;
    assert.equal((await requestJson(t, 'GET', base, org.owner.token)).body.state, 'exported');
    const redirect = await t.request(`${base}/archive`, { token: org.owner.token, redirect: 'manual' });
    const archive = await unpack(Buffer.from(await (await fetch(redirect.headers.get('location')!)).arrayBuffer()));
    return { started: started.body, base, ...archive };
  }
  after(() => t.close());

  test('the organization list needs the wyandotte preview and an owner', async () => {
    const bare = await t.request(`/orgs/${org.login}/migrations`, { token: org.owner.token });
    assert.equal(bare.status, 415);
    assert.match((await bare.json() as { message: string }).message, /wyandotte-preview/);
    const asMember = await t.request(`/orgs/${org.login}/migrations`, { token: member.token, headers: PREVIEW });
    assert.equal(asMember.status, 403);
    const start = await requestJson(t, 'POST', `/orgs/${org.login}/migrations`, member.token, { repositories: [repo] });
    assert.equal(start.status, 403);
    const ok = await t.request(`/orgs/${org.login}/migrations`, { token: org.owner.token, headers: PREVIEW });
    assert.equal(ok.status, 200);
    assert.deepEqual(await ok.json(), []);
  });

  test('bad input is a 422 and starts nothing', async () => {
    const path = `/orgs/${org.login}/migrations`;
    for (const body of [
      { repositories: ['no-such-repo'] },
      { repositories: 'cargo' },
      {},
      { repositories: [] },
      { repositories: [repo], org_metadata_only: true },
      { repositories: [repo], lock_repositories: 'yes' },
      { repositories: [repo], exclude: ['issues'] },
      { repositories: [`someone-else/${repo}`] },
    ]) {
      const r = await requestJson(t, 'POST', path, org.owner.token, body);
      assert.equal(r.status, 422, JSON.stringify(body));
    }
    const list = await t.request(path, { token: org.owner.token, headers: PREVIEW });
    assert.deepEqual(await list.json(), []);
  });

  test('export with locks: pending, writes refused, exported; the archive file by file; download, expiry, unlock, delete', async () => {
    const { migrationExports } = t.server;
    await migrationExports.stop(); // so that the pending state is seen before the worker takes it
    const started = await requestJson(t, 'POST', `/orgs/${org.login}/migrations`, org.owner.token, { repositories: [repo], lock_repositories: true });
    assert.equal(started.status, 201);
    const m = started.body;
    assert.equal(m.state, 'pending');
    assert.equal(m.lock_repositories, true);
    assert.equal(m.owner.login, org.login);
    assert.deepEqual(m.repositories.map((r: { name: string }) => r.name), [repo]);
    assert.match(m.guid, /^[0-9a-f-]{36}$/);
    const base = `/orgs/${org.login}/migrations/${m.id}`;

    // Locked: a push and REST writes (by the owner, by anyone) are refused with 403.
    await commitFiles(work, { 'late.txt': 'late\n' }, 'Too late');
    const pushed = await git(['push', '-q', 'origin', 'main'], { cwd: work.dir });
    assert.notEqual(pushed.code, 0);
    assert.match(pushed.stderr, /403|locked for migration/);
    const issue = await requestJson(t, 'POST', `/repos/${org.login}/${repo}/issues`, org.owner.token, { title: 'While locked' });
    assert.equal(issue.status, 403);
    assert.equal(issue.body.message, 'Repository was locked for migration.');
    const patch = await requestJson(t, 'PATCH', `/repos/${org.login}/${repo}`, org.owner.token, { description: 'changed' });
    assert.equal(patch.status, 403);
    const outsider = await createUser(t);
    const comment = await requestJson(t, 'POST', `/repos/${org.login}/${repo}/issues/1/comments`, outsider.token, { body: 'hi' });
    assert.equal(comment.status, 403);
    assert.equal((await requestJson(t, 'GET', `/repos/${org.login}/${repo}`, org.owner.token)).status, 200, 'still readable');
    const gql = await requestJson(t, 'POST', '/graphql', org.owner.token, { query: `{ repository(owner: "${org.login}", name: "${repo}") { isLocked } }` });
    assert.equal(gql.body.data.repository.isLocked, true);
    // Another repository of the organization is not locked.
    assert.equal((await requestJson(t, 'POST', `/repos/${org.login}/other/issues`, org.owner.token, { title: 'fine' })).status, 201);

    assert.equal((await requestJson(t, 'GET', base, org.owner.token)).body.state, 'pending');
    assert.equal((await requestJson(t, 'GET', `${base}/archive`, org.owner.token)).status, 404, 'no archive before the export');
    migrationExports.start();
    await migrationExports.idle();
    const done = (await requestJson(t, 'GET', base, org.owner.token)).body;
    assert.equal(done.state, 'exported');
    assert.equal(done.failure, null);
    assert.equal(done.progress.step, 'done');
    assert.equal(done.progress.done, done.progress.total);
    assert.equal(done.archive_url, `${t.baseUrl}${base}/archive`);

    const listed = await t.request(`/orgs/${org.login}/migrations?exclude=repositories`, { token: org.owner.token, headers: PREVIEW });
    const listBody = await listed.json() as { id: number; repositories: unknown[] }[];
    assert.deepEqual(listBody.map((x) => x.id), [m.id]);
    assert.deepEqual(listBody[0].repositories, [], 'exclude=repositories leaves them out');
    const repos = await requestJson(t, 'GET', `${base}/repositories`, org.owner.token);
    assert.deepEqual(repos.body.map((r: { full_name: string }) => r.full_name), [`${org.login}/${repo}`]);

    // The archive: a 302 to a short-lived address serving the .tar.gz.
    const redirect = await t.request(`${base}/archive`, { token: org.owner.token, redirect: 'manual' });
    assert.equal(redirect.status, 302);
    const location = redirect.headers.get('location')!;
    const download = await fetch(location);
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('content-type'), 'application/gzip');
    const { dir, files } = await unpack(Buffer.from(await download.arrayBuffer()));
    for (const name of ['schema.json', 'users_000001.json', 'organizations_000001.json', 'teams_000001.json', 'repositories_000001.json',
      'issues_000001.json', 'pull_requests_000001.json', 'issue_comments_000001.json', 'labels_000001.json', 'milestones_000001.json', 'reactions_000001.json',
      'pull_request_reviews_000001.json', 'pull_request_review_comments_000001.json', 'releases_000001.json', 'issue_events_000001.json', 'projects_000001.json']) {
      assert.ok(files.includes(name), `${name} in ${files.filter((f) => !f.startsWith('repositories/')).join(', ')}`);
    }
    assert.equal(readJson(dir, 'schema.json').version, '1.0.1');
    assert.deepEqual(readJson(dir, 'organizations_000001.json').map((o: { login: string }) => o.login), [org.login]);
    assert.deepEqual(readJson(dir, 'teams_000001.json').map((x: { name: string }) => x.name), ['Stevedores']);
    assert.deepEqual(readJson(dir, 'repositories_000001.json').map((r: { full_name: string }) => r.full_name), [`${org.login}/${repo}`]);
    const issues = readJson(dir, 'issues_000001.json');
    assert.deepEqual(issues.map((i: { title: string }) => i.title), ['Crate is leaking']);
    assert.deepEqual(issues[0].labels.map((l: { name: string }) => l.name), ['heavy']);
    assert.equal(issues[0].milestone.title, 'Voyage 1');
    assert.deepEqual(readJson(dir, 'pull_requests_000001.json').map((p: { title: string; head: { ref: string } }) => [p.title, p.head.ref]), [['Load the crate', 'feature']]);
    assert.deepEqual(readJson(dir, 'issue_comments_000001.json').map((c: { body: string }) => c.body), ['Seal it']);
    assert.ok(readJson(dir, 'labels_000001.json').some((l: { name: string }) => l.name === 'heavy'));
    assert.deepEqual(readJson(dir, 'milestones_000001.json').map((x: { title: string }) => x.title), ['Voyage 1']);
    assert.deepEqual(readJson(dir, 'reactions_000001.json').map((r: { content: string; subject_type: string }) => [r.subject_type, r.content]).sort(),
      [['issue', 'rocket'], ['issue_comment', 'heart']]);
    assert.ok(readJson(dir, 'users_000001.json').some((u: { login: string }) => u.login === org.owner.login));
    // Reviews, review comments and releases: the REST shape with upstream's archive fields added.
    const [review] = readJson(dir, 'pull_request_reviews_000001.json');
    assert.deepEqual([review.type, review.state, review.body, review.user.login], ['pull_request_review', 'COMMENTED', 'Checked', member.login]);
    assert.equal(review.pull_request, `${t.baseUrl}/repos/${org.login}/${repo}/pulls/2`);
    const [line] = readJson(dir, 'pull_request_review_comments_000001.json');
    assert.deepEqual([line.type, line.body, line.path, line.pull_request_review_id], ['pull_request_review_comment', 'Label it', 'crate.txt', review.id]);
    assert.equal(line.pull_request_review, `${review.pull_request}/reviews/${review.id}`);
    const [release] = readJson(dir, 'releases_000001.json');
    assert.deepEqual([release.type, release.tag_name, release.pending_tag, release.name, release.state, release.body],
      ['release', 'v1', 'v1', 'First voyage', 'published', 'Sailed']);
    // Its asset: the record (upstream's fields added) and the bytes under releases/<guid>/<name>, where asset_url points.
    const [asset] = release.release_assets;
    assert.deepEqual([asset.type, asset.name, asset.label, asset.content_type, asset.size, asset.state, asset.user],
      ['release_asset', 'manifest.bin', 'Manifest', 'application/x-manifest', ASSET.length, 'uploaded', `${t.baseUrl}/users/${org.owner.login}`]);
    assert.match(asset.guid, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.equal(asset.asset_url, `tarball://root/releases/${asset.guid}/manifest.bin`);
    assert.deepEqual(fs.readFileSync(path.join(dir, 'releases', asset.guid, 'manifest.bin')), ASSET);
    assert.equal(release.repository, `${t.baseUrl}/repos/${org.login}/${repo}`);
    assert.equal(release.user, `${t.baseUrl}/users/${org.owner.login}`);
    // Timeline events, oldest first, with upstream's type and the issue they are on.
    const events = readJson(dir, 'issue_events_000001.json') as { type: string; event: string; issue: string; label?: { name: string }; actor: { login: string } }[];
    assert.deepEqual(events.filter((e) => e.issue.endsWith('/issues/1')).map((e) => [e.type, e.event, e.label?.name ?? null, e.actor.login]),
      [['issue_event', 'labeled', 'heavy', org.owner.login], ['issue_event', 'milestoned', null, org.owner.login]]);
    // Classic projects, the organization's first, each with its columns and their cards.
    const projects = readJson(dir, 'projects_000001.json') as { type: string; name: string; repository: string | null; columns: { name: string; cards: { note: string }[] }[] }[];
    assert.deepEqual(projects.map((p) => [p.type, p.name, p.repository, p.columns.map((c) => [c.name, c.cards.map((k) => k.note)])]), [
      ['project', 'Fleet', null, [['To do', ['Rotterdam']]]],
      ['project', 'Voyages', `${t.baseUrl}/repos/${org.login}/${repo}`, [['To do', ['Check the hold']]]],
    ]);
    // The git data: a bare repository that clones, with the server's refs.
    const bare = path.join(dir, 'repositories', org.login, `${repo}.git`);
    const cloned = tempDir('wharf-archive-clone-');
    await gitOk(['clone', '-q', bare, cloned]);
    const refsOf = (out: string) => out.split('\n').filter((l) => l && !l.includes('HEAD')).map((l) => l.replace(/\s+/, ' ')).sort();
    const archived = refsOf(await gitOk(['ls-remote', bare]));
    const served = refsOf(await gitOk(['ls-remote', cloneUrl(t.baseUrl, org.login, repo, org.owner.login, org.owner.token)]));
    assert.deepEqual(archived, served);
    assert.ok(archived.some((l) => l.endsWith('refs/heads/feature')));
    assert.ok(fs.existsSync(path.join(cloned, 'README.md')));

    // The address stops working once its time is up.
    clock.advance(6 * 60_000);
    assert.equal((await fetch(location)).status, 404);
    assert.equal((await fetch(location.replace(/token=[^&]+/, 'token=forged'))).status, 404);

    // Unlocked: pushes and writes work again; unlocking twice is a 404.
    assert.equal((await requestJson(t, 'DELETE', `${base}/repos/${repo}/lock`, org.owner.token)).status, 204);
    assert.equal((await requestJson(t, 'DELETE', `${base}/repos/${repo}/lock`, org.owner.token)).status, 404);
    await gitOk(['push', '-q', 'origin', 'main'], { cwd: work.dir });
    assert.equal((await requestJson(t, 'POST', `/repos/${org.login}/${repo}/issues`, org.owner.token, { title: 'After unlock' })).status, 201);

    // Deleting the archive: gone for download, a second delete is a 404.
    assert.equal((await requestJson(t, 'DELETE', `${base}/archive`, org.owner.token)).status, 204);
    assert.equal((await requestJson(t, 'GET', `${base}/archive`, org.owner.token)).status, 404);
    assert.equal((await requestJson(t, 'DELETE', `${base}/archive`, org.owner.token)).status, 404);
    assert.equal((await requestJson(t, 'GET', base, member.token)).status, 403);
    assert.equal((await requestJson(t, 'GET', `/orgs/${org.login}/migrations/999999`, org.owner.token)).status, 404);
  });

  test('a pending export and its lock survive the process: another server over the same data takes the job', async () => {
    await t.server.migrationExports.stop();
    const started = await requestJson(t, 'POST', `/orgs/${org.login}/migrations`, org.owner.token, { repositories: ['other'], lock_repositories: true });
    assert.equal(started.status, 201);
    const second = await startTestServer({ clock, shareWith: t });
    try {
      const refused = await requestJson(second, 'POST', `/repos/${org.login}/other/issues`, org.owner.token, { title: 'locked here too' });
      assert.equal(refused.status, 403);
      await second.server.migrationExports.idle();
      assert.equal((await requestJson(second, 'GET', `/orgs/${org.login}/migrations/${started.body.id}`, org.owner.token)).body.state, 'exported');
      assert.equal((await requestJson(second, 'DELETE', `/orgs/${org.login}/migrations/${started.body.id}/repos/other/lock`, org.owner.token)).status, 204);
    } finally {
      await second.close();
      t.server.migrationExports.start();
    }
  });

  test('an export that cannot read its git data fails, says why and leaves no archive', async () => {
    const { data } = await t.octokit(org.owner.token).rest.repos.createInOrg({ org: org.login, name: 'broken', auto_init: true });
    fs.rmSync(repoDir(t.dataDir, data.id), { recursive: true, force: true });
    const started = await requestJson(t, 'POST', `/orgs/${org.login}/migrations`, org.owner.token, { repositories: ['broken'] });
    await t.server.migrationExports.idle();
    const failed = (await requestJson(t, 'GET', `/orgs/${org.login}/migrations/${started.body.id}`, org.owner.token)).body;
    assert.equal(failed.state, 'failed');
    assert.ok(failed.failure);
    assert.equal(failed.archive_url, undefined);
    assert.equal((await requestJson(t, 'GET', `/orgs/${org.login}/migrations/${started.body.id}/archive`, org.owner.token)).status, 404);
    const left = fs.readdirSync(path.join(t.dataDir, 'migrations')).filter((f) => f.startsWith(started.body.guid));
    assert.deepEqual(left, []);
  });

  test('/user/migrations: a user exports their own repositories; others see none of it', async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'logbook', auto_init: true });
    assert.equal((await requestJson(t, 'POST', '/user/migrations', alice.token, { repositories: ['someone/logbook'] })).status, 422);
    const started = await requestJson(t, 'POST', '/user/migrations', alice.token, { repositories: [`${alice.login}/logbook`], exclude_metadata: true });
    assert.equal(started.status, 201);
    await t.server.migrationExports.idle();
    const done = await requestJson(t, 'GET', `/user/migrations/${started.body.id}`, alice.token);
    assert.equal(done.body.state, 'exported');
    assert.equal(done.body.url, `${t.baseUrl}/user/migrations/${started.body.id}`);
    assert.deepEqual((await requestJson(t, 'GET', '/user/migrations', alice.token)).body.map((x: { id: number }) => x.id), [started.body.id]);
    assert.equal((await requestJson(t, 'GET', `/user/migrations/${started.body.id}`, bob.token)).status, 404);
    assert.deepEqual((await requestJson(t, 'GET', '/user/migrations', bob.token)).body, []);
    const redirect = await t.request(`/user/migrations/${started.body.id}/archive`, { token: alice.token, redirect: 'manual' });
    assert.equal(redirect.status, 302);
    const { dir, files } = await unpack(Buffer.from(await (await fetch(redirect.headers.get('location')!)).arrayBuffer()));
    assert.ok(!files.includes('issues_000001.json'), 'exclude_metadata leaves issues out');
    assert.deepEqual(readJson(dir, 'repositories_000001.json').map((r: { name: string }) => r.name), ['logbook']);
    await gitOk(['clone', '-q', path.join(dir, 'repositories', alice.login, 'logbook.git'), tempDir()]);
    assert.equal((await requestJson(t, 'GET', '/user/migrations', undefined)).status, 401);
  });
  test('exclude_releases, exclude_git_data and exclude: no releases, no git data, no repositories in the answer', async () => {
    const { started, base, files } = await exported({ repositories: [repo], exclude_releases: true, exclude_git_data: true, exclude: ['repositories'] });
    assert.deepEqual(started.repositories, [], 'exclude: ["repositories"] leaves them out of the answer');
    assert.deepEqual(started.exclude, ['repositories']);
    assert.equal(started.exclude_releases, true);
    assert.equal(started.exclude_git_data, true);
    // The record still holds them: exclude is about the answer, not the export.
    assert.deepEqual((await requestJson(t, 'GET', base, org.owner.token)).body.repositories.map((r: { name: string }) => r.name), [repo]);
    assert.deepEqual(files.filter((f) => f.startsWith('releases') || f.startsWith('repositories/')), [], 'no release records, no asset bytes');
    for (const name of ['repositories_000001.json', 'issues_000001.json', 'pull_requests_000001.json', 'pull_request_reviews_000001.json']) assert.ok(files.includes(name), name);
  });

  test('exclude_attachments: the asset records stay, their bytes do not (asset_url null); exclude_owner_projects: the repository\'s projects only', async () => {
    const { started, dir, files } = await exported({ repositories: [repo], exclude_attachments: true, exclude_owner_projects: true, exclude_git_data: true });
    assert.equal(started.exclude_attachments, true);
    assert.equal(started.exclude_owner_projects, true);
    assert.deepEqual(readJson(dir, 'projects_000001.json').map((p: { name: string }) => p.name), ['Voyages']);
    const [release] = readJson(dir, 'releases_000001.json');
    assert.deepEqual(release.release_assets.map((a: { name: string; asset_url: unknown }) => [a.name, a.asset_url]), [['manifest.bin', null]]);
    assert.deepEqual(files.filter((f) => f.startsWith('releases/')), []);
  });

  test('org_metadata_only: the organization, its teams and the people they name; nothing of any repository', async () => {
    const { started, dir, files } = await exported({ repositories: [], org_metadata_only: true });
    assert.equal(started.org_metadata_only, true);
    // The organization's projects are its metadata too.
    assert.deepEqual([...files].sort(), ['organizations_000001.json', 'projects_000001.json', 'schema.json', 'teams_000001.json', 'users_000001.json']);
    assert.deepEqual(readJson(dir, 'projects_000001.json').map((p: { name: string }) => p.name), ['Fleet']);
    assert.deepEqual(readJson(dir, 'users_000001.json').map((u: { login: string }) => u.login).sort(), [org.owner.login, member.login].sort());
  });

  test('progress while exporting: the record says exporting, with the step and how far through it', async () => {
    const workerOf = t.server.migrationExports;
    const seen: { state: string; progress: unknown }[] = [];
    // The worker waits on this hook after storing each report, so each read sees that report and no later one.
    workerOf.onProgress = async (id) => {
      const r = await requestJson(t, 'GET', `/orgs/${org.login}/migrations/${id}`, org.owner.token);
      seen.push({ state: r.body.state, progress: r.body.progress });
    };
    try {
      await exported({ repositories: [repo, 'other'] });
    } finally {
      workerOf.onProgress = null;
    }
    assert.deepEqual(seen.map((x) => x.state), Array(5).fill('exporting'));
    assert.deepEqual(seen.map((x) => x.progress), [
      { step: 'owner', done: 0, total: 4 },
      { step: `repository ${org.login}/${repo}`, done: 1, total: 4 },
      { step: `repository ${org.login}/other`, done: 2, total: 4 },
      { step: 'users', done: 3, total: 4 },
      { step: 'done', done: 4, total: 4 },
    ]);
  });
});
