// Issue #22: git blame runs under a time limit (WHARF_BLAME_TIMEOUT_MS). A blame past it
// is stopped — git and what it started — and the page answers 503, as a search past its
// budget does, instead of holding the request and a process for as long as it takes. The
// slow blame is real: the repository's textconv filter for the file (set in its git
// directory, as an operator could) takes longer than the limit.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { BROWSER, WebClient } from './helpers/web.ts';
import { gitOk } from './helpers/git.ts';
import { repoDir } from '../src/git/repository.ts';

const run = promisify(execFile);
// A sleep no other process runs, so that the test can tell whether it was stopped.
const SLEEP = '23.4567';

let t: TestServer;
let alice: CreatedUser;
const b64 = (s: string) => Buffer.from(s).toString('base64');

before(async () => {
  t = await startTestServer({ env: { WHARF_BLAME_TIMEOUT_MS: '3000' } });
  alice = await createUser(t);
  const kit = t.octokit(alice.token);
  const { data: repo } = await kit.rest.repos.createForAuthenticatedUser({ name: 'slow', auto_init: true });
  for (const file of ['quick.txt', 'filtered.slow']) {
    await kit.rest.repos.createOrUpdateFileContents({ owner: alice.login, repo: 'slow', path: file, message: `Add ${file}`, content: b64('one\ntwo\n') });
  }
  const dir = repoDir(t.dataDir, repo.id);
  await gitOk(['--git-dir', dir, 'config', 'diff.slow.textconv', `sleep ${SLEEP}; cat`]);
  fs.mkdirSync(path.join(dir, 'info'), { recursive: true });
  fs.appendFileSync(path.join(dir, 'info', 'attributes'), '*.slow diff=slow\n');
});
after(async () => { await t?.close(); });

async function sleeping(): Promise<boolean> {
  const { stdout } = await run('ps', ['-eo', 'args']);
  return stdout.split('\n').some((l) => l.includes(`sleep ${SLEEP}`));
}

test('a blame past the limit answers 503 and its processes are stopped; a quick one is answered', async () => {
  const web = new WebClient(t);
  const quick = await web.get(`/${alice.login}/slow/blame/main/quick.txt`, { accept: BROWSER });
  assert.equal(quick.status, 200);

  const started = Date.now();
  const slow = await web.get(`/${alice.login}/slow/blame/main/filtered.slow`, { accept: BROWSER });
  const took = Date.now() - started;
  assert.equal(slow.status, 503, slow.body.slice(0, 500));
  assert.equal((JSON.parse(slow.body) as { message: string }).message, 'Service Unavailable');
  assert.ok(took < 15_000, `answered when the limit passed, not when git finished (${took} ms)`);
  assert.equal(await sleeping(), false, 'the textconv filter git started was stopped with it');

  // Not remembered: asked again, it is tried again (and stopped again).
  const again = await web.get(`/${alice.login}/slow/blame/main/filtered.slow`, { accept: BROWSER });
  assert.equal(again.status, 503);
});
