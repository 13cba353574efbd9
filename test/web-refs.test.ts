// The refs pages of the web interface: branches (tips, default first, protected marked),
// tags, releases (at the html_url the API hands out, with badges, the body rendered,
// assets and source archives; drafts only for writers) and the compare view (status,
// commits, unified diff, across forks too), all paged as the API pages the same lists
// and 404 wherever the API would not show the repository, ref or release.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { BROWSER, setPassword, WebClient } from './helpers/web.ts';
import { gitOk } from './helpers/git.ts';
import { checkout, cloneAs, commitFiles, push, repoWithFeature, type Clone } from './factories/pulls.ts';

const PASSWORD = 'correct horse battery';
const OPEN = { required_status_checks: null, enforce_admins: null, required_pull_request_reviews: null, restrictions: null } as const;

describe('web refs pages', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  let anon: WebClient;
  let clone: Clone;
  let mainSha: string;
  let featureSha: string;
  let movedSha: string;
  let base: string;
  const repo = 'quay';

  const page = (c: WebClient, p: string) => c.get(p, { accept: BROWSER });

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    bob = await createUser(t);
    await setPassword(t, alice.login, PASSWORD);
    await setPassword(t, bob.login, PASSWORD);
    const made = await repoWithFeature(t, alice, {}, repo);
    clone = made.clone;
    mainSha = made.mainSha;
    featureSha = made.featureSha;
    base = `/${alice.login}/${repo}`;
    // 26 more branches at main's first commit and 27 tags: more than a page of each.
    const names = Array.from({ length: 26 }, (_, i) => `b-${String(i).padStart(2, '0')}`);
    for (const n of names) await gitOk(['branch', n, mainSha], { cwd: clone.dir });
    for (let i = 0; i < 26; i++) await gitOk(['tag', `t-${String(i).padStart(2, '0')}`, mainSha], { cwd: clone.dir });
    await gitOk(['tag', '-a', '-m', 'The first', 'v1.0', mainSha], { cwd: clone.dir });
    await push(clone, ...names);
    await gitOk(['push', '-q', 'origin', '--tags'], { cwd: clone.dir });
    // main moves on after feature branched off it: main...feature diverges.
    await checkout(clone, 'main');
    movedSha = await commitFiles(clone, { 'moved.txt': 'main moves\n' }, 'Main moves on');
    await push(clone, 'main');
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'vault', private: true, auto_init: true });
    aliceWeb = new WebClient(t);
    bobWeb = new WebClient(t);
    anon = new WebClient(t);
    assert.equal((await aliceWeb.signIn(alice.login, PASSWORD)).status, 303);
    assert.equal((await bobWeb.signIn(bob.login, PASSWORD)).status, 303);
  });
  after(async () => { await t.close(); });

  test('branches: tips with short sha, message and date, default first, paged as the API pages them', async () => {
    const res = await page(anon, `${base}/branches`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    const def = /<section[^>]*id="default-branch"[\s\S]*?<\/section>/.exec(res.body)?.[0] ?? '';
    assert.match(def, /data-branch="main"/, 'the default branch is shown first');
    assert.match(def, />Default</);
    assert.match(def, new RegExp(`href="${base}/commit/${movedSha}" class="sha"><code>${movedSha.slice(0, 7)}</code>`));
    assert.match(def, /Main moves on · <time dateTime="\d{4}-\d\d-\d\dT/i);
    assert.match(res.body, /All branches \(28\)/);
    assert.match(res.body, /data-branch="b-00"/);
    assert.match(res.body, new RegExp(`href="${base}/compare/main...b-00"`), 'each branch compares with the default branch');
    assert.doesNotMatch(res.body, /data-branch="feature"/, 'name order: feature is on page 2');
    assert.match(res.body, new RegExp(`href="${base}/branches\\?page=2" rel="next"`));
    assert.doesNotMatch(res.body, /class="badge warn protected"/, 'nothing is protected yet');

    const second = await page(anon, `${base}/branches?page=2`);
    assert.equal(second.status, 200);
    assert.match(second.body, /data-branch="feature"/);
    assert.match(second.body, new RegExp(`<code>${featureSha.slice(0, 7)}</code></a> Feature work`));
    assert.doesNotMatch(second.body, /id="default-branch"/);
    assert.match(second.body, new RegExp(`href="${base}/branches\\?page=1" rel="prev"`));
    const api = await t.octokit(alice.token).rest.repos.listBranches({ owner: alice.login, repo, per_page: 25, page: 2 });
    for (const b of api.data) assert.match(second.body, new RegExp(`data-branch="${b.name}"`), `page 2 holds ${b.name} as the API's page 2 does`);
  });

  test('branches: each one\'s commits behind and ahead of the default branch, as the compare API counts them', async () => {
    const row = (html: string, name: string) => new RegExp(`<li[^>]*data-branch="${name}"[\\s\\S]*?</li>`).exec(html)?.[0] ?? '';
    const first = await page(anon, `${base}/branches`);
    assert.match(row(first.body, 'b-00'), /data-behind="1" data-ahead="0"[^>]*><span class="behind">1 behind<\/span> · <span class="ahead">0 ahead<\/span>/);
    const def = /<section[^>]*id="default-branch"[\s\S]*?<\/section>/.exec(first.body)?.[0] ?? '';
    assert.doesNotMatch(def, /class="muted divergence"/, 'the default branch is not compared with itself');
    const second = await page(anon, `${base}/branches?page=2`);
    const { data } = await t.octokit(alice.token).rest.repos.compareCommitsWithBasehead({ owner: alice.login, repo, basehead: 'main...feature' });
    assert.deepEqual([data.ahead_by, data.behind_by], [1, 1]);
    assert.match(row(second.body, 'feature'), new RegExp(`data-behind="${data.behind_by}" data-ahead="${data.ahead_by}"`), 'on page 2 too, where the default branch is not listed first');
    assert.doesNotMatch(row(second.body, 'main'), /class="muted divergence"/);
  });

  test('a protected branch is marked after PUT …/branches/main/protection', async () => {
    await t.octokit(alice.token).rest.repos.updateBranchProtection({ owner: alice.login, repo, branch: 'main', ...OPEN });
    const { data } = await t.octokit(alice.token).rest.repos.getBranch({ owner: alice.login, repo, branch: 'main' });
    assert.equal(data.protected, true);
    const res = await page(anon, `${base}/branches`);
    const def = /<section[^>]*id="default-branch"[\s\S]*?<\/section>/.exec(res.body)?.[0] ?? '';
    assert.match(def, /class="badge warn protected"[^>]*>Protected</);
    assert.doesNotMatch(res.body.replace(def, ''), /Protected/, 'no other branch on page 1');
    const second = await page(anon, `${base}/branches?page=2`);
    const others = /<ul class="list box" id="branches">[\s\S]*?<\/ul>/.exec(second.body)?.[0] ?? '';
    assert.match(/<li[^>]*data-branch="main"[\s\S]*?<\/li>/.exec(others)?.[0] ?? '', /Protected/, 'marked in the whole list too');
    assert.doesNotMatch(others.replace(/<li[^>]*data-branch="main"[\s\S]*?<\/li>/, ''), /Protected/, 'only main');
  });

  test('tags: each with its commit and date, paged; annotated tags peel to their commit', async () => {
    const res = await page(anon, `${base}/tags`);
    assert.equal(res.status, 200);
    assert.match(res.body, /Tags \(27\)/);
    const v1 = /<li[^>]*data-tag="v1.0"[\s\S]*?<\/li>/.exec(res.body)?.[0] ?? '';
    assert.ok(v1, 'newest name first: v1.0 on page 1');
    assert.match(v1, new RegExp(`href="${base}/commit/${mainSha}" class="sha"><code>${mainSha.slice(0, 7)}</code></a> Add app · <time`));
    assert.match(v1, /zipball\/refs\/tags\/v1\.0"/);
    assert.match(res.body, new RegExp(`href="${base}/tags\\?page=2" rel="next"`));
    const second = await page(anon, `${base}/tags?page=2`);
    assert.equal(second.status, 200);
    const api = await t.octokit(alice.token).rest.repos.listTags({ owner: alice.login, repo, per_page: 25, page: 2 });
    assert.equal(api.data.length, 2);
    for (const tag of api.data) assert.match(second.body, new RegExp(`data-tag="${tag.name}"`));
    assert.doesNotMatch(second.body, /data-tag="v1.0"/);
  });

  test('the repository home links the branches, tags and releases pages with counts; history links compare', async () => {
    const home = await page(anon, base);
    assert.match(home.body, new RegExp(`href="${base}/branches" id="branches-link">28 branches<`));
    assert.match(home.body, new RegExp(`href="${base}/tags" id="tags-link">27 tags<`));
    assert.match(home.body, new RegExp(`href="${base}/releases" id="releases-link"`));
    const history = await page(anon, `${base}/commits/feature`);
    assert.match(history.body, new RegExp(`href="${base}/compare/main...feature" id="compare-link"`));
    assert.doesNotMatch((await page(anon, `${base}/commits/main`)).body, /id="compare-link"/);
  });

  describe('releases', () => {
    let releaseUrl: string;
    let assetUrl: string;

    before(async () => {
      const kit = t.octokit(alice.token);
      const { data: rel } = await kit.rest.repos.createRelease({
        owner: alice.login, repo, tag_name: 'v1.0', name: 'Harbour one', body: 'First **bold** release\n\n<script>alert(1)</script>',
      });
      releaseUrl = rel.html_url;
      const bytes = Buffer.alloc(2048, 7);
      const { data: asset } = await kit.request({
        method: 'POST', url: rel.upload_url, name: 'tool.zip', data: bytes,
        headers: { 'content-type': 'application/zip', 'content-length': bytes.length },
      }) as { data: { browser_download_url: string } };
      assetUrl = asset.browser_download_url;
      await kit.rest.repos.createRelease({ owner: alice.login, repo, tag_name: 't-05', name: 'Early preview', prerelease: true });
      await kit.rest.repos.createRelease({ owner: alice.login, repo, tag_name: 'v9.9', name: 'Secret draft', draft: true, body: 'not yet' });
    });

    test('the list: name, tag, badges, body rendered and sanitized, assets with size, source archives', async () => {
      const res = await page(anon, `${base}/releases`);
      assert.equal(res.status, 200);
      const one = /<article[^>]*data-tag="v1.0"[\s\S]*?<\/article>/.exec(res.body)?.[0] ?? '';
      assert.match(one, new RegExp(`<a href="${base}/releases/tag/v1.0">Harbour one</a>`));
      assert.match(one, /data-badge="latest"/);
      assert.match(one, /First <strong>bold<\/strong> release/);
      assert.doesNotMatch(res.body, /<script>alert/);
      assert.match(one, new RegExp(`href="${assetUrl.replace(/[.?]/g, '\\$&')}" class="asset-link">tool.zip</a>`));
      assert.match(one, /title="2048 bytes">2\.0 KB</);
      assert.match(one, /class="source-zip"/);
      const pre = /<article[^>]*data-tag="t-05"[\s\S]*?<\/article>/.exec(res.body)?.[0] ?? '';
      assert.match(pre, /data-badge="prerelease"/);
      assert.doesNotMatch(pre, /data-badge="latest"/);
      assert.doesNotMatch(res.body, /Secret draft/, 'a draft is not shown to a reader');
      assert.doesNotMatch((await page(bobWeb, `${base}/releases`)).body, /Secret draft/, 'nor to a signed-in outsider');
      const mine = await page(aliceWeb, `${base}/releases`);
      assert.match(mine.body, /Secret draft/, 'the owner sees the draft');
      assert.match(/<article[^>]*data-tag="v9.9"[\s\S]*?<\/article>/.exec(mine.body)?.[0] ?? '', /data-badge="draft"/);
    });

    test('one release lives at the html_url the API hands out', async () => {
      const path = new URL(releaseUrl).pathname;
      assert.equal(path, `${base}/releases/tag/v1.0`);
      const res = await page(anon, path);
      assert.equal(res.status, 200);
      assert.match(res.body, /<h2 class="release-title">Harbour one/);
      assert.match(res.body, /First <strong>bold<\/strong> release/);
      assert.match(res.body, /class="asset-link">tool.zip</);
      const zip = /href="([^"]+)" class="source-zip"/.exec(res.body)?.[1] ?? '';
      const { data } = await t.octokit(alice.token).rest.repos.getReleaseByTag({ owner: alice.login, repo, tag: 'v1.0' });
      assert.equal(zip, data.zipball_url, 'the API\'s zipball_url');
      const download = await anon.get(assetUrl.replace(t.baseUrl, ''), { accept: '*/*' });
      assert.equal(download.status, 200, 'the asset link downloads');
      assert.equal(download.body.length, 2048);

      const draft = (await t.octokit(alice.token).rest.repos.listReleases({ owner: alice.login, repo })).data.find((r) => r.draft)!;
      const draftPath = new URL(draft.html_url).pathname;
      assert.equal((await page(aliceWeb, draftPath)).status, 200, 'the draft at its html_url, for its owner');
      assert.equal((await page(anon, draftPath)).status, 404);
      assert.equal((await page(bobWeb, draftPath)).status, 404);
      assert.equal((await page(anon, `${base}/releases/tag/no-such-tag`)).status, 404);
      assert.equal((await page(anon, `${base}/releases/tag/t-01`)).status, 404, 'a tag without a release');
    });
  });

  test('compare: status, the commits, the unified diff', async () => {
    const ahead = await page(anon, `${base}/compare/${mainSha}...feature`);
    assert.equal(ahead.status, 200);
    assert.match(ahead.body, /id="compare-status">ahead</);
    assert.match(ahead.body, /1 commit ahead of the base/);
    assert.match(ahead.body, new RegExp(`href="${base}/commit/${featureSha}" class="title">Feature work<`));
    assert.match(ahead.body, /<span class="d-add">\+TWO\n<\/span>/);
    assert.match(ahead.body, /<span class="d-del">-two\n<\/span>/);
    assert.match(ahead.body, /feature\.txt/);

    const diverged = await page(anon, `${base}/compare/main...feature`);
    assert.match(diverged.body, /id="compare-status">diverged</);
    const { data } = await t.octokit(alice.token).rest.repos.compareCommitsWithBasehead({ owner: alice.login, repo, basehead: 'main...feature' });
    assert.equal(new URL(data.html_url).pathname, `${base}/compare/main...feature`, 'the page is at the html_url');
    assert.equal(data.status, 'diverged');
    assert.match((await page(anon, `${base}/compare/feature...main`)).body, /id="compare-status">diverged</);
    assert.match((await page(anon, `${base}/compare/feature...${mainSha}`)).body, /id="compare-status">behind</);
    const same = await page(anon, `${base}/compare/main...main`);
    assert.match(same.body, /id="compare-status">identical</);
    assert.match(same.body, /No commits to show/);
    assert.match((await page(anon, `${base}/compare/feature`)).body, /id="compare-status">diverged</, 'one ref compares with the default branch');

    const diff = await anon.get(new URL(data.diff_url).pathname, { accept: BROWSER });
    assert.equal(diff.status, 200);
    assert.match(diff.headers.get('content-type') ?? '', /^text\/plain/);
    assert.match(diff.body, /^\+TWO$/m);

    for (const bad of ['main...nothing', 'nothing...main', 'main..feature', '...main', 'main...']) {
      assert.equal((await page(anon, `${base}/compare/${bad}`)).status, 404, bad);
    }
  });

  test('the compare form: alone at /compare, above a comparison with its sides, a GET that goes to the comparison', async () => {
    const form = await page(anon, `${base}/compare`);
    assert.equal(form.status, 200);
    const f = /<form[^>]*id="compare-form"[\s\S]*?<\/form>/.exec(form.body)?.[0] ?? '';
    assert.match(f, new RegExp(`method="get" action="${base}/compare"`));
    assert.doesNotMatch(f, /authenticity_token/, 'a GET form carries no token');
    assert.match(f, /<label for="compare-base">Base<\/label>/);
    assert.match(f, /<option value="feature" label="branch">/, 'the branches to pick from');
    assert.match(f, /<option value="v1.0" label="tag">/, 'and the tags');

    const go = await anon.get(`${base}/compare?base=main&head=feature`, { accept: BROWSER });
    assert.equal(go.status, 303);
    assert.equal(go.headers.get('location'), `${base}/compare/main...feature`);
    const alone = await anon.get(`${base}/compare?head=feature`, { accept: BROWSER });
    assert.equal(alone.headers.get('location'), `${base}/compare/feature`, 'head alone compares with the default branch');

    const shown = await page(anon, `${base}/compare/main...feature`);
    const top = /<form[^>]*id="compare-form"[\s\S]*?<\/form>/.exec(shown.body)?.[0] ?? '';
    assert.match(top, /id="compare-base" name="base" list="compare-refs"[^>]*value="main"/);
    assert.match(top, /id="compare-head" name="head" list="compare-refs"[^>]*value="feature"/);

    const missing = await page(anon, `${base}/compare?base=main&head=no-such-branch`);
    assert.equal(missing.status, 404);
    assert.match(missing.body, /role="alert">Nothing to compare: main and no-such-branch/);
    assert.match(missing.body, /id="compare-head" name="head" list="compare-refs"[^>]*value="no-such-branch"/, 'as typed');
    const noHead = await page(anon, `${base}/compare?base=main`);
    assert.equal(noHead.status, 422);
    assert.match(noHead.body, /Choose a ref to compare with the base/);
    assert.equal((await page(anon, `/${alice.login}/vault/compare`)).status, 404, 'a private repository to anonymous');
    assert.equal((await page(bobWeb, `/${alice.login}/vault/compare?base=main&head=main`)).status, 404, 'and to an outsider');
    assert.equal((await page(aliceWeb, `/${alice.login}/vault/compare`)).status, 200);
  });

  test('compare across a fork: owner:branch', async () => {
    const { data: fork } = await t.octokit(bob.token).rest.repos.createFork({ owner: alice.login, repo });
    const work = await cloneAs(t, bob.login, fork.name, bob);
    await checkout(work, 'tide', true);
    const sha = await commitFiles(work, { 'tide.txt': 'high\nlow\n' }, 'Tide from the fork');
    await push(work, 'tide');
    const res = await page(anon, `${base}/compare/main...${bob.login}:tide`);
    assert.equal(res.status, 200);
    assert.match(res.body, /Tide from the fork/);
    assert.match(res.body, new RegExp(sha.slice(0, 7)));
    assert.match(res.body, /<span class="d-add">\+high\n<\/span>/);
    assert.equal((await page(anon, `${base}/compare/main...${bob.login}:no-such`)).status, 404);
  });

  test('a private repository\'s refs pages are 404 to an outsider and to anonymous', async () => {
    const priv = `/${alice.login}/vault`;
    for (const p of ['branches', 'tags', 'releases', 'releases/tag/v1', 'compare/main...main']) {
      assert.equal((await page(anon, `${priv}/${p}`)).status, 404, `anonymous ${p}`);
      assert.equal((await page(bobWeb, `${priv}/${p}`)).status, 404, `bob ${p}`);
    }
    for (const p of ['branches', 'tags', 'releases', 'compare/main...main']) {
      assert.equal((await page(aliceWeb, `${priv}/${p}`)).status, 200, `alice ${p}`);
    }
    assert.equal((await page(anon, `/${alice.login}/no-such-repo/branches`)).status, 404);
  });
});
