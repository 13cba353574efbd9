// The milestones pages of the web interface: the list (open and closed tabs, the API's
// orders, each milestone's progress and due date, paged as the API pages it) and one
// milestone at the html_url the API hands out, with its issues and pull requests; 404
// wherever the API would not show the repository or the milestone.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createIssue, createRepo } from './factories/issues.ts';
import { BROWSER, setPassword, WebClient } from './helpers/web.ts';
import { repoWithFeature } from './factories/pulls.ts';

const PASSWORD = 'correct horse battery';

/** The milestone numbers of a list page, in the order shown. */
function shownOrder(html: string): number[] {
  return [...html.matchAll(/data-milestone="(\d+)"/g)].map((m) => Number(m[1]));
}

/** One milestone's row of a list page. */
function rowOf(html: string, number: number): string {
  return new RegExp(`<li[^>]*data-milestone="${number}"[\\s\\S]*?</li>`).exec(html)?.[0] ?? '';
}

describe('web milestones pages', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  let anon: WebClient;
  const repo = 'berth';
  let base: string;
  const n = { release: 0, past: 0, someday: 0, old: 0 };
  const issues = { first: 0, second: 0, done: 0, pull: 0, elsewhere: 0 };

  const page = (c: WebClient, p: string) => c.get(p, { accept: BROWSER });

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    bob = await createUser(t);
    await setPassword(t, alice.login, PASSWORD);
    await setPassword(t, bob.login, PASSWORD);
    await repoWithFeature(t, alice, {}, repo);
    base = `/${alice.login}/${repo}`;
    const kit = t.octokit(alice.token);
    const r = { owner: alice.login, repo };
    const make = async (title: string, more: { due_on?: string; description?: string; state?: 'open' | 'closed' } = {}) =>
      (await kit.rest.issues.createMilestone({ ...r, title, ...more })).data.number;
    n.release = await make('v1.0', { due_on: '2099-03-01T00:00:00Z', description: 'The **first** release.\n<script>alert(1)</script>' });
    n.past = await make('v0.9', { due_on: '2020-01-15T00:00:00Z' });
    n.someday = await make('Someday');
    n.old = await make('Old', { state: 'closed' });
    issues.first = (await createIssue(t, alice.token, r, { title: 'First of the release', milestone: n.release })).number;
    issues.second = (await createIssue(t, alice.token, r, { title: 'Second of the release', milestone: n.release })).number;
    issues.done = (await createIssue(t, alice.token, r, { title: 'Done already', milestone: n.release })).number;
    await kit.rest.issues.update({ ...r, issue_number: issues.done, state: 'closed' });
    issues.elsewhere = (await createIssue(t, alice.token, r, { title: 'Not in any milestone' })).number;
    await createIssue(t, alice.token, r, { title: 'Late work', milestone: n.past });
    const pull = await kit.rest.pulls.create({ ...r, head: 'feature', base: 'main', title: 'Feature for the release' });
    issues.pull = pull.data.number;
    await kit.rest.issues.update({ ...r, issue_number: issues.pull, milestone: n.release });
    // Someday: one closed issue, so that it is the most complete.
    const closed = await createIssue(t, alice.token, r, { title: 'Someday done', milestone: n.someday });
    await kit.rest.issues.update({ ...r, issue_number: closed.number, state: 'closed' });

    await createRepo(t, alice, { name: 'vault', private: true });
    await kit.rest.issues.createMilestone({ owner: alice.login, repo: 'vault', title: 'Secret plan' });
    aliceWeb = new WebClient(t);
    bobWeb = new WebClient(t);
    anon = new WebClient(t);
    assert.equal((await aliceWeb.signIn(alice.login, PASSWORD)).status, 303);
    assert.equal((await bobWeb.signIn(bob.login, PASSWORD)).status, 303);
  });
  after(async () => { await t.close(); });

  test('the list: open tab in the API\'s default order, each with progress, counts and due date', async () => {
    const res = await page(anon, `${base}/milestones`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    const api = await t.octokit(alice.token).rest.issues.listMilestones({ owner: alice.login, repo });
    assert.deepEqual(shownOrder(res.body), api.data.map((m) => m.number), 'the API\'s order: closest due date first, none last');
    assert.deepEqual(shownOrder(res.body), [n.past, n.release, n.someday]);
    assert.match(res.body, /id="milestones-open" aria-current="page">3 Open</);
    assert.match(res.body, /id="milestones-closed">1 Closed</);

    const release = rowOf(res.body, n.release);
    const fromApi = api.data.find((m) => m.number === n.release)!;
    assert.equal(fromApi.open_issues, 3, 'two issues and the pull request are open');
    assert.equal(fromApi.closed_issues, 1);
    assert.match(release, new RegExp(`href="${base}/milestone/${n.release}" class="title">v1.0<`));
    assert.match(release, /<progress[^>]*max="100" value="25"/, '1 of 4 closed');
    assert.match(release, /<strong class="percent">25%<\/strong> complete/);
    assert.match(release, new RegExp(`href="${base}/milestone/${n.release}" class="open-count">3 open<`));
    assert.match(release, new RegExp(`href="${base}/milestone/${n.release}\\?closed=1" class="closed-count">1 closed<`));
    assert.match(release, /Due by <time dateTime="2099-03-01T00:00:00Z">2099-03-01<\/time>/);
    assert.match(release, /The <strong>first<\/strong> release\./, 'the description is rendered');
    assert.doesNotMatch(res.body, /<script>alert/, 'and sanitized');

    const past = rowOf(res.body, n.past);
    assert.match(past, /v0\.9/);
    assert.match(past, /class="badge warn past-due">Past due<\/span> by <time dateTime="2020-01-15T00:00:00Z"/);
    assert.match(past, /value="0"/);
    assert.match(res.body, /No due date/);
  });

  test('sorts are the API\'s sorts; the closed tab shows closed milestones', async () => {
    for (const [sort, direction] of [['completeness', 'desc'], ['completeness', 'asc'], ['due_date', 'desc']] as const) {
      const res = await page(anon, `${base}/milestones?sort=${sort}&direction=${direction}`);
      assert.equal(res.status, 200);
      const api = await t.octokit(alice.token).rest.issues.listMilestones({ owner: alice.login, repo, sort: sort === 'due_date' ? 'due_on' : sort, direction });
      assert.deepEqual(shownOrder(res.body), api.data.map((m) => m.number), `${sort} ${direction}`);
    }
    const most = await page(anon, `${base}/milestones?sort=completeness&direction=desc`);
    assert.equal(shownOrder(most.body)[0], n.someday, 'Someday is 100% complete');
    assert.match(most.body, /<strong>Most complete<\/strong>/);
    assert.match(most.body, new RegExp(`href="${base}/milestones\\?state=closed&amp;sort=completeness&amp;direction=desc" id="milestones-closed"`), 'the tabs keep the order');

    const closed = await page(anon, `${base}/milestones?state=closed`);
    assert.equal(closed.status, 200);
    assert.deepEqual(shownOrder(closed.body), [n.old]);
    assert.match(closed.body, /id="milestones-closed" aria-current="page">1 Closed</);
    assert.match(closed.body, /Closed <time/);
  });

  test('one milestone at its html_url: open issues and pull requests, the closed tab, links', async () => {
    const { data } = await t.octokit(alice.token).rest.issues.getMilestone({ owner: alice.login, repo, milestone_number: n.release });
    const at = new URL(data.html_url).pathname;
    assert.equal(at, `${base}/milestone/${n.release}`);
    const res = await page(anon, at);
    assert.equal(res.status, 200);
    assert.match(res.body, /<h2 id="milestone-title">v1\.0<span class="badge state-open" id="milestone-state">Open</);
    assert.match(res.body, /<progress[^>]*value="25"/);
    assert.match(res.body, /id="milestone-open" aria-current="page">3 Open</);
    const list = /<ul class="list box" id="milestone-issues">[\s\S]*?<\/ul>\s*(?:<nav|<\/main>)/.exec(res.body)?.[0] ?? '';
    const shown = [...list.matchAll(/data-number="(\d+)"/g)].map((m) => Number(m[1])).sort((a, b) => a - b);
    const api = await t.octokit(alice.token).rest.issues.listForRepo({ owner: alice.login, repo, milestone: String(n.release) });
    assert.deepEqual(shown, api.data.map((i) => i.number).sort((a, b) => a - b), 'as GET …/issues?milestone=N lists them');
    assert.deepEqual(shown, [issues.first, issues.second, issues.pull].sort((a, b) => a - b));
    assert.match(list, new RegExp(`href="${base}/pull/${issues.pull}" class="title">Feature for the release</a><span class="badge">Pull request`));
    assert.match(list, new RegExp(`href="${base}/issues/${issues.first}" class="title">First of the release<`));
    assert.doesNotMatch(res.body, /Not in any milestone|Done already/);
    assert.match(res.body, new RegExp(`href="${base}/milestones" id="all-milestones"`));

    const closed = await page(anon, `${at}?closed=1`);
    assert.equal(closed.status, 200);
    assert.match(closed.body, /id="milestone-closed" aria-current="page">1 Closed</);
    assert.match(closed.body, new RegExp(`data-number="${issues.done}"`));
    assert.doesNotMatch(closed.body, /First of the release/);
  });

  test('the issues list links to the milestones and filters by one, as the API\'s milestone filter', async () => {
    const issuesPage = await page(anon, `${base}/issues`);
    assert.match(issuesPage.body, new RegExp(`href="${base}/milestones" id="milestones-link"`));
    const one = await page(anon, `${base}/milestone/${n.release}`);
    assert.match(one.body, new RegExp(`href="${base}/issues\\?state=open&amp;milestone=${n.release}" id="milestone-in-issues"`));
    const numbers = (html: string) => [...(/<ul class="list box" id="issues">[\s\S]*?<\/ul>/.exec(html)?.[0] ?? '').matchAll(/href="[^"]*\/(?:issues|pull)\/(\d+)" class="title"/g)].map((m) => Number(m[1])).sort((a, b) => a - b);
    for (const milestone of [String(n.release), '*', 'none']) {
      const res = await page(anon, `${base}/issues?state=all&milestone=${encodeURIComponent(milestone)}`);
      assert.equal(res.status, 200);
      const api = await t.octokit(alice.token).rest.issues.listForRepo({ owner: alice.login, repo, state: 'all', milestone });
      assert.deepEqual(numbers(res.body), api.data.map((i) => i.number).sort((a, b) => a - b), `milestone=${milestone}`);
      assert.match(res.body, /id="milestone-filter"/);
      assert.ok(res.body.includes(`href="${base}/issues?state=closed&amp;milestone=${encodeURIComponent(milestone)}"`), 'the state tabs keep the filter');
    }
    assert.ok(numbers((await page(anon, `${base}/issues?state=all&milestone=none`)).body).includes(issues.elsewhere));
  });

  test('a milestone number past the integer range matches nothing (PostgreSQL answered GET …/issues?milestone=2147483648 with a 500)', async () => {
    const api = await t.request(`/repos/${alice.login}/${repo}/issues?milestone=2147483648`, { token: alice.token });
    assert.equal(api.status, 200);
    assert.deepEqual(await api.json(), []);
    const res = await page(anon, `${base}/issues?milestone=99999999999999999999`);
    assert.equal(res.status, 200);
    assert.match(res.body, /No issues match\./);
  });

  test('an issue and a pull request name their milestone, linking to its page', async () => {
    const link = new RegExp(`id="issue-milestone">Milestone: <a href="${base}/milestone/${n.release}">v1.0</a>`);
    assert.match((await page(anon, `${base}/issues/${issues.first}`)).body, link);
    assert.match((await page(anon, `${base}/pull/${issues.pull}`)).body, link);
    assert.doesNotMatch((await page(anon, `${base}/issues/${issues.elsewhere}`)).body, /id="issue-milestone"/);
  });

  test('unknown milestones are 404', async () => {
    for (const p of [`${base}/milestone/999`, `${base}/milestone/abc`, `/${alice.login}/nowhere/milestones`]) {
      assert.equal((await page(anon, p)).status, 404, p);
    }
  });

  test('a private repository\'s milestones are 404 to those who cannot see it', async () => {
    for (const p of [`/${alice.login}/vault/milestones`, `/${alice.login}/vault/milestone/1`]) {
      assert.equal((await page(anon, p)).status, 404, `anonymous ${p}`);
      assert.equal((await page(bobWeb, p)).status, 404, `bob ${p}`);
      const own = await page(aliceWeb, p);
      assert.equal(own.status, 200, `alice ${p}`);
      assert.match(own.body, /Secret plan/);
    }
  });

  test('pages of milestones as the API pages them', async () => {
    const kit = t.octokit(alice.token);
    await createRepo(t, alice, { name: 'many', autoInit: false });
    for (let i = 0; i < 27; i++) {
      await kit.rest.issues.createMilestone({ owner: alice.login, repo: 'many', title: `M${i}`, due_on: `2030-01-${String(i + 1).padStart(2, '0')}T00:00:00Z` });
    }
    const first = await page(anon, `/${alice.login}/many/milestones`);
    assert.equal(shownOrder(first.body).length, 25);
    assert.match(first.body, /rel="next"/);
    const second = await page(anon, `/${alice.login}/many/milestones?page=2`);
    const api = await kit.rest.issues.listMilestones({ owner: alice.login, repo: 'many', per_page: 25, page: 2 });
    assert.deepEqual(shownOrder(second.body), api.data.map((m) => m.number));
    assert.equal(api.data.length, 2);
  });
});
