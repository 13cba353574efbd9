// An organization's settings pages (#23): /organizations/{org}/settings/profile (the
// fields PATCH /orgs/{org} takes) and the owner's actions on /orgs/{org}/people (invite
// by username, change a member's role, remove a member), through the orgs services the
// REST API uses. Each success is checked through the API; each refusal comes back inline
// and changes nothing; forged posts are refused; a member and an outsider get 404 and the
// people page without the actions.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addMember, createOrgWithOwner, type CreatedOrg } from './factories/orgs.ts';
import { BROWSER, CHROMIUM, chromiumMissing, csrfIn, setPassword, WebClient } from './helpers/web.ts';

const PASSWORD = 'correct horse battery';

describe('web: organization settings', () => {
  let t: TestServer;
  let org: CreatedOrg;
  let member: CreatedUser;
  let outsider: CreatedUser;
  let newcomer: CreatedUser;
  let ownerWeb: WebClient;
  let memberWeb: WebClient;
  let outsiderWeb: WebClient;

  const page = (c: WebClient, p: string) => c.get(p, { accept: BROWSER });
  const kit = () => t.octokit(org.owner.token);
  const roleOf = async (login: string) => {
    try {
      return (await kit().rest.orgs.getMembershipForUser({ org: org.login, username: login })).data.role;
    } catch (err) {
      if ((err as { status?: number }).status === 404) return null;
      throw err;
    }
  };
  const profile = () => `/organizations/${org.login}/settings/profile`;
  const people = () => `/orgs/${org.login}/people`;

  before(async () => {
    t = await startTestServer();
    org = await createOrgWithOwner(t);
    member = await addMember(t, org);
    [outsider, newcomer] = [await createUser(t), await createUser(t)];
    for (const u of [org.owner, member, outsider]) await setPassword(t, u.login, PASSWORD);
    [ownerWeb, memberWeb, outsiderWeb] = [new WebClient(t), new WebClient(t), new WebClient(t)];
    assert.equal((await ownerWeb.signIn(org.owner.login, PASSWORD)).status, 303);
    assert.equal((await memberWeb.signIn(member.login, PASSWORD)).status, 303);
    assert.equal((await outsiderWeb.signIn(outsider.login, PASSWORD)).status, 303);
  });
  after(async () => { await t.close(); });

  test('only owners: a member and an outsider get 404 on the settings and every post, and the people page without actions', async () => {
    const before = (await kit().rest.orgs.get({ org: org.login })).data;
    for (const c of [memberWeb, outsiderWeb]) {
      assert.equal((await page(c, profile())).status, 404);
      const token = csrfIn((await page(c, people())).body);
      assert.equal((await c.post(profile(), { authenticity_token: token, name: 'Taken over', default_repository_permission: 'admin' })).status, 404);
      assert.equal((await c.post(`${people()}/invite`, { authenticity_token: token, login: newcomer.login, role: 'admin' })).status, 404);
      assert.equal((await c.post(`${people()}/role`, { authenticity_token: token, login: member.login, role: 'admin' })).status, 404);
      assert.equal((await c.post(`${people()}/remove`, { authenticity_token: token, login: org.owner.login })).status, 404);
      const list = await page(c, people());
      assert.equal(list.status, 200);
      assert.doesNotMatch(list.body, /people\/(role|remove|invite)/, 'no owner actions');
    }
    assert.equal((await page(new WebClient(t), profile())).status, 302, 'signed out: to the sign-in page');
    assert.equal((await page(ownerWeb, '/organizations/no-such-org-here/settings/profile')).status, 404);
    const after = (await kit().rest.orgs.get({ org: org.login })).data;
    assert.deepEqual([after.name, after.default_repository_permission], [before.name, before.default_repository_permission]);
    assert.deepEqual([await roleOf(member.login), await roleOf(org.owner.login), await roleOf(newcomer.login)], ['member', 'admin', null]);
  });

  test('profile: saved through PATCH /orgs/{org}, checked through the API; refusals inline with nothing changed', async () => {
    const form = await page(ownerWeb, profile());
    assert.equal(form.status, 200);
    assert.match(form.body, /id="org-base-permission" name="default_repository_permission"/);
    const token = csrfIn(form.body);
    const fields = {
      name: 'Harbour Works', email: 'hello@harbour.example', description: 'We build piers.', blog: 'https://harbour.example',
      location: 'Rotterdam', company: 'Harbour BV', twitter_username: 'harbour_works', billing_email: 'bills@harbour.example',
      default_repository_permission: 'write', members_can_create_repositories: '1', members_can_create_private_repositories: '1',
      has_organization_projects: '1', web_commit_signoff_required: '1',
    };
    const post = (f: Record<string, string>) => ownerWeb.post(profile(), { authenticity_token: token, ...f });

    const badEmail = await post({ ...fields, email: 'not an address' });
    assert.equal(badEmail.status, 422);
    assert.match(badEmail.body, /role="alert">email is invalid/);
    assert.match(badEmail.body, /id="org-name" name="name"[^>]*value="Harbour Works"/, 'the form as typed');
    const badHandle = await post({ ...fields, twitter_username: 'way too long a handle!' });
    assert.equal(badHandle.status, 422);
    assert.match(badHandle.body, /twitter_username must/);
    const badPermission = await post({ ...fields, default_repository_permission: 'owner' });
    assert.equal(badPermission.status, 422);
    assert.match(badPermission.body, /default_repository_permission must be equal to one of the allowed values/);
    assert.equal((await post({ ...fields, description: 'x'.repeat(161) })).status, 422, 'a description longer than PATCH takes');
    assert.equal((await post({ ...fields, authenticity_token: 'a'.repeat(64) })).status, 403, 'forged token');
    assert.equal((await ownerWeb.post(profile(), fields)).status, 403, 'no token');
    const unchanged = (await kit().rest.orgs.get({ org: org.login })).data;
    assert.deepEqual([unchanged.name, unchanged.email, unchanged.default_repository_permission], [null, null, 'read']);

    const saved = await post(fields);
    assert.equal(saved.status, 303);
    assert.equal(saved.location, profile());
    const o = (await kit().rest.orgs.get({ org: org.login })).data;
    assert.deepEqual(
      [o.name, o.email, o.description, o.blog, o.location, o.company, o.twitter_username, o.billing_email, o.default_repository_permission],
      ['Harbour Works', 'hello@harbour.example', 'We build piers.', 'https://harbour.example', 'Rotterdam', 'Harbour BV', 'harbour_works', 'bills@harbour.example', 'write']);
    assert.deepEqual(
      [o.members_can_create_repositories, o.members_can_create_public_repositories, o.members_can_create_private_repositories, o.has_organization_projects, o.has_repository_projects, o.web_commit_signoff_required],
      [true, false, true, true, false, true]);
    const shown = await page(ownerWeb, profile());
    assert.match(shown.body, /id="org-location" name="location"[^>]*value="Rotterdam"/);
    assert.match(shown.body, /<option value="write" selected="">write<\/option>/);

    // Cleared fields are cleared, as PATCH clears them.
    assert.equal((await post({ ...fields, blog: '', location: '' })).status, 303);
    const cleared = (await kit().rest.orgs.get({ org: org.login })).data;
    assert.deepEqual([cleared.blog || null, cleared.location || null, cleared.name], [null, null, 'Harbour Works']);
  });

  test('people: invite by username, change a role and remove, checked through the API; refusals inline with nothing changed', async () => {
    const list = await page(ownerWeb, people());
    assert.equal(list.status, 200);
    assert.match(list.body, new RegExp(`data-login="${member.login}"[^]*?data-role="member"`));
    assert.match(list.body, new RegExp(`data-login="${org.owner.login}"[^]*?data-role="admin"`));
    const token = csrfIn(list.body);
    const post = (path: string, f: Record<string, string>) => ownerWeb.post(`${people()}/${path}`, { authenticity_token: token, ...f });

    const nobody = await post('invite', { login: 'no-such-user-here', role: 'member' });
    assert.equal(nobody.status, 422);
    assert.match(nobody.body, /No user is called no-such-user-here\./);
    assert.match(nobody.body, /id="invite-member-login" name="login"[^>]*value="no-such-user-here"/);
    const already = await post('invite', { login: member.login, role: 'admin' });
    assert.equal(already.status, 422);
    assert.match(already.body, new RegExp(`${member.login} is already a member of ${org.login}\\.`));
    const badRole = await post('invite', { login: newcomer.login, role: 'superuser' });
    assert.equal(badRole.status, 422);
    assert.match(badRole.body, /superuser is not one of admin, member\./);
    assert.equal((await post('invite', { login: newcomer.login, role: 'member', authenticity_token: 'b'.repeat(64) })).status, 403);
    const lastOwner = await post('role', { login: org.owner.login, role: 'member' });
    assert.equal(lastOwner.status, 403);
    assert.match(lastOwner.body, /You cannot remove the last owner of an organization\./);
    const removeLast = await post('remove', { login: org.owner.login });
    assert.equal(removeLast.status, 403);
    const notMember = await post('remove', { login: outsider.login });
    assert.equal(notMember.status, 422);
    assert.match(notMember.body, new RegExp(`${outsider.login} is not a member of ${org.login}\\.`));
    assert.deepEqual([await roleOf(member.login), await roleOf(org.owner.login), await roleOf(newcomer.login), await roleOf(outsider.login)], ['member', 'admin', null, null]);

    const invited = await post('invite', { login: newcomer.login, role: 'member' });
    assert.equal(invited.status, 303);
    assert.equal(invited.location, people());
    assert.equal(await roleOf(newcomer.login), 'member');
    assert.equal((await post('role', { login: member.login, role: 'admin' })).status, 303);
    assert.equal(await roleOf(member.login), 'admin');
    assert.match((await page(ownerWeb, people())).body, new RegExp(`data-login="${member.login}"[^]*?data-role="admin"`));
    // Now two owners: the first may step down.
    assert.equal((await post('role', { login: org.owner.login, role: 'member' })).status, 303);
    assert.equal(await roleOf(org.owner.login), 'member');
    assert.equal((await page(ownerWeb, profile())).status, 404, 'no longer an owner');
    await t.octokit(member.token).rest.orgs.setMembershipForUser({ org: org.login, username: org.owner.login, role: 'admin' });

    assert.equal((await post('remove', { login: newcomer.login, authenticity_token: 'c'.repeat(64) })).status, 403);
    assert.equal(await roleOf(newcomer.login), 'member');
    assert.equal((await post('remove', { login: newcomer.login })).status, 303);
    assert.equal(await roleOf(newcomer.login), null);
    assert.doesNotMatch((await page(ownerWeb, people())).body, new RegExp(`data-login="${newcomer.login}"`));
  });

  describe('in a real browser', { skip: chromiumMissing ? 'chromium is not installed' : false }, () => {
    let browser: Browser;
    before(async () => { browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }); });
    after(async () => { await browser?.close(); });

    test('change the organization\'s location, then invite a member from the people page', async () => {
      const context = await browser.newContext();
      const p = await context.newPage();
      await p.goto(`${t.baseUrl}/login?return_to=${encodeURIComponent(profile())}`);
      await p.fill('#login_field', org.owner.login);
      await p.fill('#password', PASSWORD);
      await p.click('#sign-in');
      await p.fill('#org-location', 'Antwerp');
      const axe = await new AxeBuilder({ page: p }).analyze();
      const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), [], 'the profile form is accessible');
      await p.click('#save-org-profile');
      await p.waitForSelector('#org-location[value="Antwerp"]');
      assert.equal((await kit().rest.orgs.get({ org: org.login })).data.location, 'Antwerp');
      await p.click('nav[aria-label="Organization settings"] >> text=People');
      const guest = await createUser(t);
      await p.fill('#invite-member-login', guest.login);
      const axePeople = await new AxeBuilder({ page: p }).analyze();
      const badPeople = axePeople.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(badPeople.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), [], 'the people page is accessible');
      await p.click('#invite-member');
      await p.waitForSelector(`li[data-login="${guest.login}"]`);
      assert.equal(await roleOf(guest.login), 'member');
      await context.close();
    });
  });
});
