// Issue #11, findings 3 and 9: a push git accepted is recorded even when the process
// that ran it died before its bookkeeping (the push journal, reconciled at the next
// start), and the quarantine directories of killed pushes are removed at start-up.
//
// The kill is simulated without timing: either a journal row is written as the push's
// start would write it and a ref is then moved with git directly (the process "died"
// before recording), or a real push over HTTP is held in a post-receive hook, after git
// moved the ref, while another server starts on the same data dir.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { checkout, commitFiles, push, repoWithFeature } from './factories/pulls.ts';
import { createRepo } from './factories/repos.ts';
import { cloneUrl, git, gitOk } from './helpers/git.ts';
import { listEvents } from '../src/events/outbox.ts';
import { userActor } from '../src/domain/actor.ts';
import * as gitRepo from '../src/git/repository.ts';
import { openEntry } from '../src/modules/git-http/git-http.journal.ts';
import type { AppContext } from '../src/context.ts';

const START = Date.parse('2026-01-01T00:00:00Z');
const HOUR = 3600_000;

async function journalRows(ctx: AppContext) {
  return ctx.db.selectFrom('push_journal').selectAll().execute();
}

async function outboxSize(ctx: AppContext): Promise<number> {
  return (await listEvents(ctx)).length;
}

function quarantine(t: TestServer, repoId: number, name: string): string {
  const dir = path.join(gitRepo.repoDir(t.dataDir, repoId), 'objects', name);
  fs.mkdirSync(path.join(dir, 'pack'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'pack', 'tmp_pack_dead'), randomBytes(64 * 1024));
  return dir;
}

async function waitFor(file: string): Promise<void> {
  for (let i = 0; i < 600 && !fs.existsSync(file); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(fs.existsSync(file), `${file} never appeared`);
}

describe('push durability (issue #11, findings 3 and 9)', () => {
  let t: TestServer;
  let alice: CreatedUser;

  before(async () => {
    // A frozen clock: the restarted servers run an hour later, past every lease.
    t = await startTestServer({ clock: new TestClock(START) });
    alice = await createUser(t, ['repo', 'user']);
  });
  after(() => t.close());

  test('finding 3: a push whose process died before recording it is recorded at the next start, once; finding 9: quarantine dirs go', async () => {
    const r = await repoWithFeature(t, alice);
    const kit = t.octokit(alice.token);
    const repo = r.clone.repo;
    await kit.rest.pulls.create({ owner: alice.login, repo, title: 'Moving', head: 'feature', base: 'main' });
    await checkout(r.clone, 'old', true);
    await push(r.clone, 'old');
    const before = (await kit.rest.repos.get({ owner: alice.login, repo })).data;
    const repoEvents = async () => (await listEvents(t.server.ctx, { repositoryId: r.id })).length;
    const eventsBefore = await repoEvents();
    const eventIdsBefore = new Set((await listEvents(t.server.ctx, { repositoryId: r.id })).map((e) => e.id));

    // The push starts: journaled as the route journals it …
    const dir = gitRepo.repoDir(t.dataDir, r.id);
    const actor = userActor({ id: alice.id, login: alice.login, siteAdmin: false }, 'token', 0, [], '');
    await openEntry(t.server.ctx, actor, r.id, await gitRepo.listRefs(dir));
    // … git accepts it (a new head for the pull request with 256 KiB of content, a new
    // branch, a deleted one) and the process dies before its bookkeeping: nothing recorded.
    await checkout(r.clone, 'feature');
    fs.writeFileSync(path.join(r.clone.dir, 'cargo.bin'), randomBytes(256 * 1024));
    const next = await commitFiles(r.clone, { 'more.txt': 'more\n' }, 'More work');
    await gitOk(['push', '-q', dir, 'feature', 'feature:refs/heads/extra', ':refs/heads/old'], { cwd: r.clone.dir });
    // Wharf moves pull request refs itself (a merge preview read): no part of the push.
    await gitOk(['update-ref', 'refs/pull/1/merge', next], { cwd: dir });
    const leftBehind = [quarantine(t, r.id, 'tmp_objdir-incoming-dead01'), quarantine(t, r.id, 'incoming-dead02')];
    // A repository without a journal row, with a quarantine dir left by a push killed before the journal existed.
    const other = await createRepo(t, alice);
    const orphan = quarantine(t, other.id, 'tmp_objdir-incoming-orphan');
    assert.equal(await repoEvents(), eventsBefore, 'the dead push recorded nothing');
    // Re-pushing cannot repair it: git says everything is up to date.
    const again = await git(['push', 'origin', 'feature'], { cwd: r.clone.dir });
    assert.match(again.stderr, /up-to-date/);
    assert.equal(await repoEvents(), eventsBefore);

    // The next start records it.
    const t2 = await startTestServer({ shareWith: t, clock: new TestClock(START + HOUR) });
    try {
      const ctx = t2.server.ctx;
      assert.deepEqual(await journalRows(ctx), []);
      const pushes = (await listEvents(ctx, { event: 'push', repositoryId: r.id })).slice(-4).filter((e) => !eventIdsBefore.has(e.id));
      assert.deepEqual(pushes.map((e) => [e.payload.ref, e.payload.before, e.payload.after, e.actorId]), [
        ['refs/heads/extra', gitRepo.ZERO_SHA, next, alice.id],
        ['refs/heads/feature', r.featureSha, next, alice.id],
        ['refs/heads/old', r.mainSha, gitRepo.ZERO_SHA, alice.id],
      ]);
      const feature = pushes[1]!.payload;
      assert.deepEqual((feature.commits as { message: string }[]).map((c) => c.message), ['More work']);
      assert.equal((feature.pusher as { name: string }).name, alice.login);
      const created = (await listEvents(ctx, { event: 'create', repositoryId: r.id })).at(-1)!;
      assert.equal(created.payload.ref, 'extra');
      const deleted = (await listEvents(ctx, { event: 'delete', repositoryId: r.id })).at(-1)!;
      assert.equal(deleted.payload.ref, 'old');
      // The pull request moved along, through the push event's subscriber.
      const sync = (await listEvents(ctx, { event: 'pull_request', repositoryId: r.id })).filter((e) => e.action === 'synchronize');
      assert.equal(sync.length, 1);
      assert.equal(sync[0]!.payload.after, next);
      const kit2 = t2.octokit(alice.token);
      assert.equal((await kit2.rest.pulls.get({ owner: alice.login, repo, pull_number: 1 })).data.head.sha, next);
      const now = (await kit2.rest.repos.get({ owner: alice.login, repo })).data;
      assert.equal(now.pushed_at, '2026-01-01T01:00:00Z');
      assert.notEqual(now.pushed_at, before.pushed_at);
      assert.ok(now.size >= before.size + 200, `size ${before.size} → ${now.size}`);
      for (const d of [...leftBehind, orphan]) assert.ok(!fs.existsSync(d), `${d} was left`);
      await gitOk(['fsck', '--no-progress'], { cwd: dir });

      // A second start records nothing twice.
      const recorded = await outboxSize(ctx);
      const t3 = await startTestServer({ shareWith: t, clock: new TestClock(START + 2 * HOUR) });
      try {
        assert.equal(await outboxSize(t3.server.ctx), recorded);
        assert.equal((await t3.octokit(alice.token).rest.repos.get({ owner: alice.login, repo })).data.pushed_at, '2026-01-01T01:00:00Z');
      } finally {
        await t3.close();
      }
    } finally {
      await t2.close();
    }
  });

  test('a push over HTTP is journaled before git runs; recorded exactly once when another process records it first', async () => {
    const r = await repoWithFeature(t, alice);
    const dir = gitRepo.repoDir(t.dataDir, r.id);
    // Holds receive-pack after git moved the refs and before the server hears it exit.
    const signals = fs.mkdtempSync(path.join(path.dirname(t.dataDir), 'wharf-hook-'));
    const hook = path.join(dir, 'hooks', 'post-receive');
    fs.writeFileSync(hook, `#!/bin/sh\ncat >/dev/null\ntouch '${signals}/reached'\nwhile [ ! -f '${signals}/release' ]; do sleep 0.05; done\n`, { mode: 0o755 });
    try {
      await checkout(r.clone, 'feature');
      const next = await commitFiles(r.clone, { 'held.txt': 'held\n' }, 'Held push');
      const pushing = git(['push', '-q', cloneUrl(t.baseUrl, alice.login, r.clone.repo, alice.login, alice.token), 'feature'], { cwd: r.clone.dir });
      await waitFor(path.join(signals, 'reached'));
      // git has moved the ref; the journal row was committed before git ran, with the refs as they were.
      assert.equal(await gitRepo.resolve(dir, 'refs/heads/feature'), next);
      const rows = await journalRows(t.server.ctx);
      assert.equal(rows.length, 1);
      assert.equal(rows[0]!.repository_id, r.id);
      assert.equal(rows[0]!.actor_id, alice.id);
      assert.ok((JSON.parse(rows[0]!.refs) as gitRepo.RefEntry[]).some((e) => e.ref === 'refs/heads/feature' && e.sha === r.featureSha));

      // Another process starts meanwhile, past the lease: it records the push …
      const t2 = await startTestServer({ shareWith: t, clock: new TestClock(START + HOUR) });
      try {
        assert.deepEqual(await journalRows(t2.server.ctx), []);
      } finally {
        await t2.close();
      }
      // … and the process that ran it, finding its row closed, records nothing more.
      fs.writeFileSync(path.join(signals, 'release'), '');
      const done = await pushing;
      assert.equal(done.code, 0, done.stderr);
      const pushes = (await listEvents(t.server.ctx, { event: 'push', repositoryId: r.id })).filter((e) => e.payload.after === next);
      assert.equal(pushes.length, 1);
      assert.equal(pushes[0]!.payload.before, r.featureSha);
      assert.deepEqual(await journalRows(t.server.ctx), []);
    } finally {
      fs.rmSync(hook, { force: true });
      fs.rmSync(signals, { recursive: true, force: true });
    }
  });

  test('an ordinary push over HTTP is recorded and leaves neither a journal row nor a quarantine dir', async () => {
    const r = await repoWithFeature(t, alice);
    const next = await commitFiles(r.clone, { 'plain.txt': 'plain\n' }, 'Plain push');
    await push(r.clone, 'main');
    const pushes = (await listEvents(t.server.ctx, { event: 'push', repositoryId: r.id })).filter((e) => e.payload.after === next);
    assert.equal(pushes.length, 1);
    assert.deepEqual(await journalRows(t.server.ctx), []);
    const objects = fs.readdirSync(path.join(gitRepo.repoDir(t.dataDir, r.id), 'objects'));
    assert.deepEqual(objects.filter((n) => n.includes('incoming-')), []);
  });
});
