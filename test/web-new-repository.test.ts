// The new repository page (/new, issue #23): a signed-in user creates a repository for
// themselves or an organization where they may (the rule POST /orgs/{org}/repos applies),
// through the service the REST API uses; each creation is checked through the API. Refusals
// (blank, invalid or taken name, an organization where the user may not create, a
// visibility its settings refuse) come back inline with what was typed and create
// nothing; signed out goes to the sign-in page; a forged post is refused.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { uniqueLogin, type CreatedUser } from './factories/accounts.ts';
import { addMember, createOrgWithOwner, type CreatedOrg } from './factories/orgs.ts';
import { BROWSER, CHROMIUM, chromiumMissing, csrfIn, setPassword, WebClient } from './helpers/web.ts';

const PASSWORD = 'correct horse battery';

describe('web: new repository', () => {
  let t: TestServer;
  let user: CreatedUser;
  /** Owned by `user`. */
  let own: CreatedOrg;
  /** `user` is a member; members may not create repositories. */
  let closed: CreatedOrg;
  /** `user` is a member; members may create private repositories only. */
  let privateOnly: CreatedOrg;
  /** `user` is not a member. */
  let foreign: CreatedOrg;
  let web: WebClient;

  const page = (c: WebClient, p: string) => c.get(p, { accept: BROWSER });
  const kit = () => t.octokit(user.token);
  const exists = async (owner: string, repo: string) => {
    try {
      await kit().rest.repos.get({ owner, repo });
      return true;
    } catch (err) {
      if ((err as { status?: number }).status === 404) return false;
      throw err;
    }
  };
  const ownCount = async () => (await kit().rest.repos.listForAuthenticatedUser({ per_page: 100 })).data.length;
  const submit = async (fields: Record<string, string>) => web.post('/new', { authenticity_token: csrfIn((await page(web, '/new')).body), ...fields });

  before(async () => {
    t = await startTestServer();
    own = await createOrgWithOwner(t);
    user = own.owner;
    closed = await createOrgWithOwner(t);
    privateOnly = await createOrgWithOwner(t);
    foreign = await createOrgWithOwner(t);
    for (const o of [closed, privateOnly]) {
      await t.octokit(o.owner.token).rest.orgs.setMembershipForUser({ org: o.login, username: user.login, role: 'member' });
    }
    await t.octokit(closed.owner.token).rest.orgs.update({ org: closed.login, members_can_create_repositories: false });
    await t.octokit(privateOnly.owner.token).rest.orgs.update({
      org: privateOnly.login, members_can_create_repositories: true, members_can_create_public_repositories: false, members_can_create_private_repositories: true,
    });
    await setPassword(t, user.login, PASSWORD);
    web = new WebClient(t);
    assert.equal((await web.signIn(user.login, PASSWORD)).status, 303);
  });
  after(async () => { await t.close(); });

  test('the form offers the user and the organizations where they may create; the home page links to it', async () => {
    const home = await page(web, '/');
    assert.match(home.body, /<a href="\/new" id="new-repository"[^>]*>New repository<\/a>/);
    const form = await page(web, '/new');
    assert.equal(form.status, 200);
    const options = [...form.body.matchAll(/<option value="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(options, [user.login, ...[own.login, privateOnly.login].sort((a, b) => a.localeCompare(b))]);
    for (const field of [/id="repo-name" name="name"/, /id="repo-description" name="description"/, /name="visibility" checked="" value="public"/,
      /name="visibility" value="private"/, /name="auto_init" value="1"\/>/]) {
      assert.match(form.body, field);
    }
    const member = await addMember(t, closed);
    const memberWeb = new WebClient(t);
    await setPassword(t, member.login, PASSWORD);
    await memberWeb.signIn(member.login, PASSWORD);
    const memberForm = await page(memberWeb, '/new');
    assert.deepEqual([...memberForm.body.matchAll(/<option value="([^"]+)"/g)].map((m) => m[1]), [member.login], 'no organization where members may not create');
  });

  test('for the user, private, with a README: 303 to its page, checked through the API', async () => {
    const name = uniqueLogin('harbour');
    const res = await submit({ owner: user.login, name, description: 'Charts of the harbour', visibility: 'private', auto_init: '1' });
    assert.equal(res.status, 303);
    const { data: repo } = await kit().rest.repos.get({ owner: user.login, repo: name });
    assert.equal(res.location, new URL(repo.html_url).pathname);
    assert.deepEqual([repo.name, repo.owner.login, repo.description, repo.private], [name, user.login, 'Charts of the harbour', true]);
    const { data: readme } = await kit().rest.repos.getContent({ owner: user.login, repo: name, path: 'README.md', ref: repo.default_branch });
    assert.ok(!Array.isArray(readme) && readme.type === 'file', 'README.md on the default branch');
    const shown = await page(web, res.location!);
    assert.equal(shown.status, 200);
  });

  test('for an organization, public, no README: an empty repository owned by it', async () => {
    const name = uniqueLogin('pier');
    const res = await submit({ owner: own.login, name, description: '', visibility: 'public' });
    assert.equal(res.status, 303);
    const { data: repo } = await kit().rest.repos.get({ owner: own.login, repo: name });
    assert.equal(res.location, new URL(repo.html_url).pathname);
    assert.deepEqual([repo.owner.login, repo.private, repo.description, repo.size], [own.login, false, null, 0]);
    assert.equal((await kit().rest.repos.listBranches({ owner: own.login, repo: name })).data.length, 0, 'no README, no commit');
    const res2 = await submit({ owner: privateOnly.login, name, visibility: 'private' });
    assert.equal(res2.status, 303, 'a member creates private repositories where the settings allow them');
    assert.equal((await kit().rest.repos.get({ owner: privateOnly.login, repo: name })).data.private, true);
  });

  test('refusals: inline with what was typed, status 422, nothing created', async () => {
    const taken = uniqueLogin('taken');
    assert.equal((await submit({ owner: user.login, name: taken, visibility: 'public' })).status, 303);
    const before = await ownCount();
    const cases: [Record<string, string>, RegExp, [string, string] | null][] = [
      [{ owner: user.login, name: '', description: 'kept as typed' }, /name is missing/, null],
      [{ owner: user.login, name: 'no spaces allowed', description: 'kept as typed' }, /may only contain letters/, [user.login, 'no spaces allowed']],
      [{ owner: user.login, name: taken, description: 'kept as typed' }, /already exists/, null],
      [{ owner: closed.login, name: 'closed-repo', description: 'kept as typed' }, new RegExp(`may not create repositories in ${closed.login}`), [closed.login, 'closed-repo']],
      [{ owner: foreign.login, name: 'foreign-repo', description: 'kept as typed' }, new RegExp(`may not create repositories in ${foreign.login}`), [foreign.login, 'foreign-repo']],
      [{ owner: privateOnly.login, name: 'public-repo', description: 'kept as typed', visibility: 'public' }, /may not create public repositories/, [privateOnly.login, 'public-repo']],
    ];
    for (const [fields, message, where] of cases) {
      const res = await submit(fields);
      assert.equal(res.status, 422, JSON.stringify(fields));
      const alert = /<div class="flash error" role="alert">([\s\S]*?)<\/div>/.exec(res.body);
      assert.ok(alert, `an alert for ${JSON.stringify(fields)}`);
      assert.match(alert[1]!, message);
      assert.ok(res.body.includes('value="kept as typed"'), 'the description as typed');
      assert.ok(res.body.includes(`value="${fields.name}"`), 'the name as typed');
      assert.match(res.body, new RegExp(`<option value="${fields.owner}" selected=""`), 'the owner as chosen');
      if (where) assert.equal(await exists(...where), false, `${where.join('/')} not created`);
    }
    assert.equal(await ownCount(), before, 'nothing created');
  });

  test('signed out: to the sign-in page and back; a post creates nothing', async () => {
    const anon = new WebClient(t);
    const res = await page(anon, '/new');
    assert.equal(res.status, 302);
    assert.equal(res.location, '/login?return_to=%2Fnew');
    const name = uniqueLogin('anon');
    const post = await anon.post('/new', { owner: user.login, name });
    assert.equal(post.status, 302);
    assert.equal(await exists(user.login, name), false);
  });

  test('a forged post (no or a wrong CSRF token) is refused with 403 and creates nothing', async () => {
    const name = uniqueLogin('forged');
    for (const token of ['', 'not-the-token']) {
      const res = await web.post('/new', { authenticity_token: token, owner: user.login, name, visibility: 'public' });
      assert.equal(res.status, 403);
    }
    assert.equal(await exists(user.login, name), false);
  });

  describe('in a real browser', { skip: chromiumMissing ? 'chromium is not installed' : false }, () => {
    let browser: Browser;
    before(async () => { browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }); });
    after(async () => { await browser?.close(); });

    test('from the home page, fill the form and land on the new repository', async () => {
      const context = await browser.newContext();
      const p = await context.newPage();
      await p.goto(`${t.baseUrl}/login?return_to=%2F`);
      await p.fill('#login_field', user.login);
      await p.fill('#password', PASSWORD);
      await p.click('#sign-in');
      await p.click('#new-repository');
      await p.waitForSelector('#new-repo-form');
      const name = uniqueLogin('browser');
      await p.selectOption('#repo-owner', own.login);
      await p.fill('#repo-name', name);
      await p.fill('#repo-description', 'Made in a browser');
      await p.check('#repo-visibility-private');
      await p.check('#repo-auto-init');
      const axe = await new AxeBuilder({ page: p }).analyze();
      const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), [], 'the form is accessible');
      await Promise.all([p.waitForURL(`${t.baseUrl}/${own.login}/${name}`), p.click('#create-repository')]);
      assert.match(await p.content(), /README\.md/);
      const { data: repo } = await kit().rest.repos.get({ owner: own.login, repo: name });
      assert.deepEqual([repo.description, repo.private], ['Made in a browser', true]);
      await context.close();
    });
  });
});
