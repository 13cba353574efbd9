// The search time budget (WHARF_SEARCH_TIMEOUT_MS): a search out of time answers what
// it found with incomplete_results, or 503 when it found nothing. No sleeps: the
// server's clock steps forward on every reading once armed, so the budget runs out at
// a known point of the search (its start, or between code search's chunks).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo, type CreatedRepo } from './factories/repos.ts';

/** A clock that moves `step` ms each time it is read (0: stands still). */
class SteppingClock extends TestClock {
  step = 0;
  override now(): Date {
    const at = super.now();
    this.advance(this.step);
    return at;
  }
}

interface Answer {
  status: number;
  body: { total_count?: number; incomplete_results?: boolean; items?: { repository: { name: string } }[]; message?: string; documentation_url?: string };
}

describe('search time budget', () => {
  const clock = new SteppingClock();
  let t: TestServer;
  let alice: CreatedUser;
  const repos: CreatedRepo[] = [];
  const tag = `bq${Date.now().toString(36)}`;

  async function get(pathname: string): Promise<Answer> {
    const res = await t.request(pathname, { token: alice.token });
    return { status: res.status, body: await res.json() as Answer['body'] };
  }
  const code = () => get(`/search/code?q=${encodeURIComponent(`${tag}Capstan user:${alice.login}`)}`);

  before(async () => {
    // 2.5 s of budget: with the clock stepping 1 s a reading, the search starts in time,
    // scans its first chunk (one repository) and finds the budget spent before the second.
    t = await startTestServer({ clock, env: { WHARF_SEARCH_TIMEOUT_MS: '2500', WHARF_RATE_LIMIT_SEARCH_AUTHENTICATED: '100000' } });
    alice = await createUser(t);
    for (const name of ['fore', 'aft']) {
      const repo = await createRepo(t, alice, { name: `${tag}-${name}` });
      await t.octokit(alice.token).rest.repos.createOrUpdateFileContents({
        owner: repo.owner, repo: repo.repo, path: 'winch.txt', message: 'Add the winch', content: Buffer.from(`${tag}Capstan turns\n`).toString('base64'),
      });
      repos.push(repo);
    }
    await t.server.searchIndex.idle();
  });
  after(() => t.close());

  test('within the budget: complete', async () => {
    const r = await code();
    assert.equal(r.status, 200);
    assert.equal(r.body.incomplete_results, false);
    assert.equal(r.body.total_count, 2);
  });

  test('budget spent mid-scan: what was found, incomplete_results true', async () => {
    clock.step = 1000;
    const r = await code().finally(() => { clock.step = 0; });
    assert.equal(r.status, 200);
    assert.equal(r.body.incomplete_results, true);
    // The first chunk is the repository created first (lowest id) alone.
    assert.equal(r.body.total_count, 1);
    assert.deepEqual(r.body.items!.map((i) => i.repository.name), [repos[0]!.repo]);
  });

  test('budget spent before anything was found: 503 with the spec error body', async () => {
    clock.step = 5000;
    const answers = await Promise.all([
      code(), get(`/search/issues?q=${tag}`), get(`/search/repositories?q=${tag}`), get(`/search/commits?q=${tag}`),
    ]).finally(() => { clock.step = 0; });
    for (const r of answers) {
      assert.equal(r.status, 503);
      assert.equal(r.body.message, 'Service unavailable');
      assert.equal(typeof r.body.documentation_url, 'string');
    }
  });
});
