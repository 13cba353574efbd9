// Issue #12, git aim: a push over HTTP is answered once git has exited, and recorded
// after (events, pushed_at, the default branch of a first push), without the client
// waiting for it. Until it is recorded, the pusher's next API requests and git sessions
// on the repository wait for it; other callers do not.
//
// The recording is held, without timing, by holding the repository's ref recording lock
// (which every recording takes) until the test lets it go.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { cloneUrl, gitOk, tempDir } from './helpers/git.ts';
import { listEvents } from '../src/events/outbox.ts';
import { allPushesRecorded, anyPushUnrecorded } from '../src/git/push-recordings.ts';
import { withRefRecordingLock } from '../src/modules/git-http/git-http.service.ts';

/** git without the test helper's wait for recordings: the exit code and stderr. */
function rawGit(args: string[], cwd: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } }, (err, _stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stderr });
    });
  });
}

/** Holds the repository's ref recording lock until the returned function is called. */
async function holdRecording(t: TestServer, repoId: number): Promise<{ release(): void; released: Promise<void> }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => { release = resolve; });
  let held!: () => void;
  const holding = new Promise<void>((resolve) => { held = resolve; });
  const released = withRefRecordingLock(t.server.ctx, repoId, async () => { held(); await gate; });
  await holding;
  return { release, released };
}

describe('a push is answered before it is recorded (issue #12)', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t, ['repo', 'user']);
    bob = await createUser(t, ['repo', 'user']);
  });
  after(() => t.close());

  test('git push returns while the recording is held; the pusher\'s next request and a clone wait for it, others do not', async () => {
    const { data: repo } = await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'held' });
    const work = tempDir();
    await gitOk(['init', '-q', '-b', 'trunk', work]);
    fs.writeFileSync(path.join(work, 'a.txt'), 'a\n');
    await gitOk(['add', 'a.txt'], { cwd: work });
    await gitOk(['-c', 'user.name=A', '-c', 'user.email=a@example.com', 'commit', '-q', '-m', 'First'], { cwd: work });
    const url = cloneUrl(t.baseUrl, alice.login, 'held', alice.login, alice.token);

    const hold = await holdRecording(t, repo.id);
    // Answered with the recording still to come: before, the response waited for it (and here, for ever).
    const pushed = await rawGit(['push', '-q', url, 'trunk'], work);
    assert.equal(pushed.code, 0, pushed.stderr);
    assert.ok(anyPushUnrecorded());
    assert.deepEqual(await listEvents(t.server.ctx, { event: 'push', repositoryId: repo.id }), []);

    // alice's next request, and a clone of the repository, wait for the recording …
    const seenByAlice = t.octokit(alice.token).rest.repos.get({ owner: alice.login, repo: 'held' });
    const clone = tempDir();
    const cloned = rawGit(['clone', '-q', cloneUrl(t.baseUrl, alice.login, 'held', bob.login, bob.token), clone], work);
    // … while another user, asking after them, is not held up by alice's push.
    const seenByBob = await t.octokit(bob.token).rest.repos.get({ owner: alice.login, repo: 'held' });
    assert.equal(seenByBob.data.default_branch, 'main');
    assert.equal(seenByBob.data.pushed_at, repo.pushed_at);
    hold.release();
    await hold.released;
    assert.equal((await seenByAlice).data.default_branch, 'trunk');
    const c = await cloned;
    assert.equal(c.code, 0, c.stderr);
    assert.equal((await gitOk(['rev-parse', '--abbrev-ref', 'HEAD'], { cwd: clone })).trim(), 'trunk');
    await allPushesRecorded();
    assert.ok(!anyPushUnrecorded());
    const pushes = await listEvents(t.server.ctx, { event: 'push', repositoryId: repo.id });
    assert.deepEqual(pushes.map((e) => e.payload.ref), ['refs/heads/trunk']);
  });
});
