// The site-admin area (#23) at GitHub Enterprise Server's addresses (/stafftools): the
// users, organizations and repositories lists with their filter and pages, the create
// forms, and a user's page (suspend with a reason, unsuspend, promote, demote, rename,
// password, delete with the login typed again) and an organization's (rename), through
// the admin service the REST API uses. Each success is checked through the API; each
// refusal comes back inline and changes nothing; forged posts are refused; everyone but
// a site admin gets 404, signed in or not, on pages and posts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './helpers/server.ts';
import { createOrg, createUser, uniqueLogin, type CreatedUser } from './factories/accounts.ts';
import { createRepo } from './factories/issues.ts';
import { BROWSER, CHROMIUM, chromiumMissing, csrfIn, setPassword, WebClient } from './helpers/web.ts';

const PASSWORD = 'correct horse battery';

describe('web: site admin', () => {
  let t: TestServer;
  let staff: CreatedUser;
  let bob: CreatedUser;
  let staffWeb: WebClient;
  let bobWeb: WebClient;

  const page = (c: WebClient, p: string) => c.get(p, { accept: BROWSER });
  const adminKit = () => t.octokit(ADMIN_TOKEN);
  /** The REST user record, or null when there is none. */
  const userOf = async (login: string) => {
    const res = await t.request(`/users/${login}`, { token: ADMIN_TOKEN });
    return res.status === 404 ? null : (await res.json()) as { login: string; site_admin: boolean; type: string };
  };
  /** Whether the user's token still works (a suspended user's is refused with 403). */
  const tokenStatus = async (token: string) => (await t.request('/user', { token })).status;
  /** A post of the staff browser with its session's token. */
  const staffPost = async (p: string, form: Record<string, string>) => {
    const token = csrfIn((await page(staffWeb, '/stafftools/users')).body);
    return staffWeb.post(p, { authenticity_token: token, ...form });
  };

  before(async () => {
    t = await startTestServer();
    [staff, bob] = [await createUser(t), await createUser(t)];
    await adminKit().request('PUT /users/{username}/site_admin', { username: staff.login });
    for (const u of [staff, bob]) await setPassword(t, u.login, PASSWORD);
    staffWeb = new WebClient(t);
    bobWeb = new WebClient(t);
    assert.equal((await staffWeb.signIn(staff.login, PASSWORD)).status, 303);
    assert.equal((await bobWeb.signIn(bob.login, PASSWORD)).status, 303);
  });
  after(async () => { await t.close(); });

  test('only site admins: 404 to a user, to the anonymous and to tokens, on pages and posts; the header link for admins only', async () => {
    const paths = ['/stafftools', '/stafftools/users', '/stafftools/organizations', '/stafftools/repositories', `/stafftools/users/${bob.login}`, `/stafftools/users/${staff.login}`];
    for (const p of paths) {
      assert.equal((await page(bobWeb, p)).status, 404, `${p} for a signed-in user`);
      assert.equal((await page(new WebClient(t), p)).status, 404, `${p} for the anonymous`);
      assert.equal((await t.request(p, { token: ADMIN_TOKEN, headers: { accept: BROWSER } })).status, 404, `${p} with the site admin's token`);
    }
    const index = await page(staffWeb, '/stafftools');
    assert.deepEqual([index.status, index.location], [302, '/stafftools/users']);
    for (const p of paths.slice(1)) assert.equal((await page(staffWeb, p)).status, 200, p);

    // bob posts with his own valid token: not found, nothing done.
    const token = csrfIn((await page(bobWeb, '/')).body);
    const login = uniqueLogin('intruder');
    assert.equal((await bobWeb.post('/stafftools/users', { authenticity_token: token, login })).status, 404);
    assert.equal((await bobWeb.post(`/stafftools/users/${staff.login}/suspend`, { authenticity_token: token, reason: 'x' })).status, 404);
    assert.equal((await bobWeb.post(`/stafftools/users/${bob.login}/promote`, { authenticity_token: token })).status, 404);
    assert.equal((await new WebClient(t).post(`/stafftools/users/${bob.login}/promote`, { authenticity_token: token })).status, 404);
    assert.equal(await userOf(login), null);
    assert.equal(await tokenStatus(staff.token), 200);
    assert.equal((await userOf(bob.login))!.site_admin, false);

    // The header's link: for site admins, on the pages and on the settings pages.
    assert.match((await page(staffWeb, '/')).body, /<a href="\/stafftools" id="site-admin-link">Site admin<\/a>/);
    assert.match((await page(staffWeb, '/settings')).body, /id="site-admin-link"/);
    assert.doesNotMatch((await page(bobWeb, '/')).body, /stafftools/);
    assert.doesNotMatch((await page(bobWeb, '/settings')).body, /stafftools/);
  });

  test('lists: users paged and filtered by login, organizations, repositories', async () => {
    const prefix = uniqueLogin('roster');
    for (let i = 1; i <= 32; i++) await adminKit().request('POST /admin/users', { login: `${prefix}-${i}` });
    const org = await createOrg(t, bob.login, `${prefix}-org`);
    await createRepo(t, bob, { name: `${prefix}-repo` });

    const first = await page(staffWeb, `/stafftools/users?q=${prefix}`);
    assert.equal(first.status, 200);
    assert.match(first.body, /id="users-total">32 users</);
    const logins = (html: string) => [...html.matchAll(/data-login="([^"]+)"/g)].map((m) => m[1]);
    assert.equal(logins(first.body).length, 30);
    assert.equal(logins(first.body)[0], `${prefix}-1`, 'signup order');
    assert.ok(!logins(first.body).includes(org.login), 'no organization among the users');
    assert.match(first.body, new RegExp(`href="/stafftools/users\\?q=${prefix}&amp;page=2" rel="next"`));
    const second = await page(staffWeb, `/stafftools/users?q=${prefix}&page=2`);
    assert.deepEqual(logins(second.body), [`${prefix}-31`, `${prefix}-32`]);
    assert.match((await page(staffWeb, '/stafftools/users?q=no-such-login-anywhere')).body, /No user&#x27;s login holds no-such-login-anywhere\./);
    assert.match((await page(staffWeb, `/stafftools/users?q=${staff.login}`)).body, new RegExp(`data-login="${staff.login}"[^]*?data-badge="site-admin"`));

    const orgs = await page(staffWeb, `/stafftools/organizations?q=${prefix}`);
    assert.deepEqual(logins(orgs.body), [org.login]);
    assert.match(orgs.body, /id="organizations-total">1 organization</);

    const repos = await page(staffWeb, `/stafftools/repositories?q=${prefix}`);
    assert.deepEqual([...repos.body.matchAll(/data-repo="([^"]+)"/g)].map((m) => m[1]), [`${bob.login}/${prefix}-repo`]);
    assert.match(repos.body, new RegExp(`href="/stafftools/users/${bob.login}"`));
  });

  test('create a user: checked through the API; refusals inline, nothing made; forged posts refused', async () => {
    const login = uniqueLogin('made');
    const taken = await staffPost('/stafftools/users', { login: bob.login, email: '' });
    assert.equal(taken.status, 422);
    assert.match(taken.body, /role="alert">login already exists</);
    assert.match(taken.body, new RegExp(`id="new-user-login" name="login"[^>]*value="${bob.login}"`));
    const invalid = await staffPost('/stafftools/users', { login: 'bad--name', email: '' });
    assert.equal(invalid.status, 422);
    assert.match(invalid.body, /login may only contain alphanumeric characters or single hyphens/);
    const reserved = await staffPost('/stafftools/users', { login: 'stafftools', email: '' });
    assert.match(reserved.body, /login &#x27;stafftools&#x27; is reserved/);
    const badEmail = await staffPost('/stafftools/users', { login, email: 'not-an-address' });
    assert.equal(badEmail.status, 422);
    assert.equal((await staffWeb.post('/stafftools/users', { login })).status, 403, 'no token');
    assert.equal((await staffWeb.post('/stafftools/users', { login, authenticity_token: 'a'.repeat(64) })).status, 403, 'forged token');
    assert.equal(await userOf(login), null);
    assert.equal(await userOf('bad--name'), null);

    const made = await staffPost('/stafftools/users', { login, email: `${login}@example.com` });
    assert.deepEqual([made.status, made.location], [303, `/stafftools/users/${login}`]);
    assert.deepEqual(await userOf(login).then((u) => [u?.login, u?.type, u?.site_admin]), [login, 'User', false]);
    const shown = await page(staffWeb, made.location!);
    assert.match(shown.body, new RegExp(`${login}@example.com`));

    // Its password, set here: the user signs in with it; a short one is refused inline.
    const short = await staffPost(`/stafftools/users/${login}/password`, { password: 'short' });
    assert.equal(short.status, 422);
    assert.match(short.body, /id="password-form"[^]*?role="alert">Password is too short/);
    assert.doesNotMatch(short.body, /value="short"/, 'the password is not shown back');
    assert.notEqual((await new WebClient(t).signIn(login, 'short')).status, 303);
    assert.equal((await staffPost(`/stafftools/users/${login}/password`, { password: PASSWORD })).status, 303);
    assert.equal((await new WebClient(t).signIn(login, PASSWORD)).status, 303);
  });

  test('suspend with a reason and unsuspend: the token is refused and sign-in too, as the API defines; self-suspension refused inline', async () => {
    const carol = await createUser(t);
    await setPassword(t, carol.login, PASSWORD);
    const carolWeb = new WebClient(t);
    assert.equal((await carolWeb.signIn(carol.login, PASSWORD)).status, 303);

    const self = await staffPost(`/stafftools/users/${staff.login}/suspend`, { reason: 'testing' });
    assert.equal(self.status, 403);
    assert.match(self.body, /id="suspend-form"[^]*?role="alert">You cannot suspend yourself\.</);
    assert.match(self.body, /id="suspend-reason" name="reason"[^>]*value="testing"/);
    assert.equal(await tokenStatus(staff.token), 200);
    assert.equal((await staffWeb.post(`/stafftools/users/${carol.login}/suspend`, { authenticity_token: 'c'.repeat(64), reason: 'x' })).status, 403);
    assert.equal(await tokenStatus(carol.token), 200, 'a forged post suspends nobody');

    const done = await staffPost(`/stafftools/users/${carol.login}/suspend`, { reason: 'Spam, reported twice' });
    assert.deepEqual([done.status, done.location], [303, `/stafftools/users/${carol.login}`]);
    const refused = await t.request('/user', { token: carol.token });
    assert.equal(refused.status, 403);
    assert.match(((await refused.json()) as { message: string }).message, /suspended/);
    assert.equal((await page(carolWeb, '/settings')).status, 302, 'the session is over');
    const signIn = await new WebClient(t).signIn(carol.login, PASSWORD);
    assert.notEqual(signIn.status, 303);
    assert.match(signIn.body, /Your account was suspended/);
    const shown = await page(staffWeb, `/stafftools/users/${carol.login}`);
    assert.match(shown.body, /data-badge="suspended"/);
    assert.match(shown.body, /id="unsuspend"/);

    assert.equal((await staffPost(`/stafftools/users/${carol.login}/unsuspend`, {})).status, 303);
    assert.equal(await tokenStatus(carol.token), 200);
    assert.equal((await new WebClient(t).signIn(carol.login, PASSWORD)).status, 303);
    assert.doesNotMatch((await page(staffWeb, `/stafftools/users/${carol.login}`)).body, /data-badge="suspended"/);
  });

  test('promote and demote: checked through the API; the promoted user sees the area; self-demotion refused inline', async () => {
    const dave = await createUser(t);
    await setPassword(t, dave.login, PASSWORD);
    const daveWeb = new WebClient(t);
    await daveWeb.signIn(dave.login, PASSWORD);
    assert.equal((await page(daveWeb, '/stafftools/users')).status, 404);

    assert.equal((await staffPost(`/stafftools/users/${dave.login}/promote`, {})).status, 303);
    assert.equal((await userOf(dave.login))!.site_admin, true);
    assert.equal((await page(daveWeb, '/stafftools/users')).status, 200);
    assert.match((await page(daveWeb, '/')).body, /id="site-admin-link"/);

    const self = await staffPost(`/stafftools/users/${staff.login}/demote`, {});
    assert.equal(self.status, 403);
    assert.match(self.body, /id="site-admin-form"[^]*?role="alert">You cannot demote yourself\.</);
    assert.equal((await userOf(staff.login))!.site_admin, true);

    assert.equal((await staffPost(`/stafftools/users/${dave.login}/demote`, {})).status, 303);
    assert.equal((await userOf(dave.login))!.site_admin, false);
    assert.equal((await page(daveWeb, '/stafftools/users')).status, 404);
  });

  test('rename and delete a user: checked through the API; a taken login and a wrong confirmation refused inline', async () => {
    const erin = await createUser(t);
    const taken = await staffPost(`/stafftools/users/${erin.login}/rename`, { login: bob.login });
    assert.equal(taken.status, 422);
    assert.match(taken.body, /id="rename-form"[^]*?role="alert">login already exists</);
    assert.match(taken.body, new RegExp(`id="rename-login" name="login"[^>]*value="${bob.login}"`));
    assert.equal((await staffPost(`/stafftools/users/${erin.login}/rename`, { login: '-bad' })).status, 422);
    assert.equal((await userOf(erin.login))?.login, erin.login);

    const renamed = uniqueLogin('renamed');
    const done = await staffPost(`/stafftools/users/${erin.login}/rename`, { login: renamed });
    assert.deepEqual([done.status, done.location], [303, `/stafftools/users/${renamed}`]);
    assert.equal(await userOf(erin.login), null);
    assert.equal((await userOf(renamed))?.login, renamed);

    const wrong = await staffPost(`/stafftools/users/${renamed}/delete`, { confirm: erin.login });
    assert.equal(wrong.status, 422);
    assert.match(wrong.body, new RegExp(`id="delete-form"[^]*?role="alert">Type ${renamed} to confirm the deletion\\.<`));
    const self = await staffPost(`/stafftools/users/${staff.login}/delete`, { confirm: staff.login });
    assert.equal(self.status, 422);
    assert.match(self.body, /You cannot delete your own account\./);
    assert.equal((await staffWeb.post(`/stafftools/users/${renamed}/delete`, { confirm: renamed })).status, 403, 'no token');
    assert.ok(await userOf(renamed));
    assert.ok(await userOf(staff.login));

    const deleted = await staffPost(`/stafftools/users/${renamed}/delete`, { confirm: renamed });
    assert.deepEqual([deleted.status, deleted.location], [303, '/stafftools/users']);
    assert.equal(await userOf(renamed), null);
    assert.equal((await page(staffWeb, `/stafftools/users/${renamed}`)).status, 404);
  });

  test('organizations: create with an owner and rename, checked through the API; refusals inline, nothing made', async () => {
    const login = uniqueLogin('org');
    const noAdmin = await staffPost('/stafftools/organizations', { login, admin: 'no-such-user-here', profile_name: '' });
    assert.equal(noAdmin.status, 422);
    assert.match(noAdmin.body, /id="create-org-form"[^]*?role="alert">admin &#x27;no-such-user-here&#x27; is not a user</);
    assert.match(noAdmin.body, new RegExp(`id="new-org-login" name="login"[^>]*value="${login}"`));
    const taken = await staffPost('/stafftools/organizations', { login: bob.login, admin: bob.login, profile_name: '' });
    assert.equal(taken.status, 422);
    assert.equal((await t.request(`/orgs/${login}`, { token: ADMIN_TOKEN })).status, 404);

    const made = await staffPost('/stafftools/organizations', { login, admin: bob.login, profile_name: 'The Harbour' });
    assert.deepEqual([made.status, made.location], [303, `/stafftools/users/${login}`]);
    const { data: org } = await t.octokit(bob.token).rest.orgs.get({ org: login });
    assert.equal(org.name, 'The Harbour');
    const { data: membership } = await t.octokit(bob.token).rest.orgs.getMembershipForUser({ org: login, username: bob.login });
    assert.equal(membership.role, 'admin');
    const shown = await page(staffWeb, made.location!);
    assert.match(shown.body, /<span class="badge">organization<\/span>/);

    const clash = await staffPost(`/stafftools/users/${login}/rename`, { login: bob.login });
    assert.equal(clash.status, 422);
    assert.match(clash.body, /role="alert">login already exists</);
    const renamed = uniqueLogin('org');
    const done = await staffPost(`/stafftools/users/${login}/rename`, { login: renamed });
    assert.deepEqual([done.status, done.location], [303, `/stafftools/users/${renamed}`]);
    assert.equal((await t.octokit(bob.token).rest.orgs.get({ org: renamed })).data.login, renamed);
    assert.equal((await t.request(`/orgs/${login}`, { token: ADMIN_TOKEN })).status, 404);
    // An organization has no user switches.
    assert.equal((await staffPost(`/stafftools/users/${renamed}/delete`, { confirm: renamed })).status, 404);
  });

  describe('in a real browser', { skip: chromiumMissing ? 'chromium is not installed' : false }, () => {
    let browser: Browser;
    before(async () => { browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }); });
    after(async () => { await browser?.close(); });

    test('from the header link to a user, then suspend them with a reason', async () => {
      const frank = await createUser(t);
      const context = await browser.newContext();
      const p = await context.newPage();
      await p.goto(`${t.baseUrl}/login`);
      await p.fill('#login_field', staff.login);
      await p.fill('#password', PASSWORD);
      await p.click('#sign-in');
      await p.click('#site-admin-link');
      await p.waitForSelector('#users-filter');
      const axe = async () => {
        const found = await new AxeBuilder({ page: p }).analyze();
        return found.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      };
      assert.deepEqual(await axe(), [], 'the users list is accessible');
      await p.fill('#users-q', frank.login);
      await p.click('#users-filter button');
      await p.click(`[data-login="${frank.login}"] a`);
      await p.waitForSelector('#suspend-form');
      assert.deepEqual(await axe(), [], 'the user page is accessible');
      await p.fill('#suspend-reason', 'Clicked in a browser');
      await p.click('#suspend');
      await p.waitForSelector('#unsuspend');
      assert.equal(p.url(), `${t.baseUrl}/stafftools/users/${frank.login}`);
      assert.equal(await tokenStatus(frank.token), 403);
      await context.close();
    });
  });
});
