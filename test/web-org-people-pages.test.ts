// An organization's people page as its owner sees it (with each member's role and the
// owner's actions) pages its members as the other web lists do (?page=, 25 a page, with
// Previous and Next), so that every member can be managed however many there are: the
// pages together list each member once, as GET /orgs/{org}/members does, each with their
// own role. Headless Chromium follows Next, with axe-core.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { addMember, createOrgWithOwner, type CreatedOrg } from './factories/orgs.ts';
import { BROWSER, CHROMIUM, chromiumMissing, setPassword, WebClient } from './helpers/web.ts';

const PASSWORD = 'correct horse battery';
const PER_PAGE = 25;
/** Members besides the owner: past one page. */
const MEMBERS = 28;

describe('web: an organization\'s people page, paged for its owner', () => {
  let t: TestServer;
  let org: CreatedOrg;
  let ownerWeb: WebClient;
  let people: string;
  /** Made an owner last: on a later page. */
  let lastAdmin: string;

  const rowsOf = (html: string) => [...html.matchAll(/<li class="row" data-login="([^"]+)"><div>[\s\S]*?data-role="(admin|member)"/g)].map((m) => [m[1]!, m[2]!] as const);

  before(async () => {
    t = await startTestServer();
    org = await createOrgWithOwner(t);
    await setPassword(t, org.owner.login, PASSWORD);
    for (let i = 0; i < MEMBERS; i += 1) {
      const m = await addMember(t, org, i === MEMBERS - 1 ? 'admin' : 'member');
      if (i === MEMBERS - 1) lastAdmin = m.login;
    }
    people = `/orgs/${org.login}/people`;
    ownerWeb = new WebClient(t);
    assert.equal((await ownerWeb.signIn(org.owner.login, PASSWORD)).status, 303);
  });
  after(async () => { await t?.close(); });

  test('the pages list every member once, with their role and actions, and link to each other', async () => {
    const { data: api } = await t.octokit(org.owner.token).rest.orgs.listMembers({ org: org.login, per_page: 100 });
    assert.equal(api.length, MEMBERS + 1);
    const first = await ownerWeb.get(people, { accept: BROWSER });
    assert.match(first.body, new RegExp(`<h2>People \\(${MEMBERS + 1}\\)</h2>`));
    assert.equal(rowsOf(first.body).length, PER_PAGE);
    assert.match(first.body, new RegExp(`<nav aria-label="Pages" class="pager"><span> Page 1 of 2 </span><a href="${people}\\?page=2" rel="next">Next</a></nav>`));
    const second = await ownerWeb.get(`${people}?page=2`, { accept: BROWSER });
    assert.equal(second.status, 200);
    assert.match(second.body, new RegExp(`<a href="${people}\\?page=1" rel="prev">Previous</a><span> Page 2 of 2 </span>`));
    const rows = [...rowsOf(first.body), ...rowsOf(second.body)];
    assert.deepEqual(rows.map(([login]) => login).sort(), api.map((m) => m.login).sort(), 'each member once');
    const roles = new Map(rows);
    assert.equal(roles.get(org.owner.login), 'admin');
    assert.equal(roles.get(lastAdmin), 'admin', 'an owner on any page shown as one');
    assert.equal([...roles.values()].filter((r) => r === 'admin').length, 2);
    for (const [login] of rowsOf(second.body)) {
      assert.match(second.body, new RegExp(`aria-label="Remove ${login} from ${org.login}"`), 'the actions on the later page too');
    }
    assert.equal(rowsOf((await ownerWeb.get(`${people}?page=9`, { accept: BROWSER })).body).length, 0, 'past the end: no one');
  });

  describe('in a real browser', { skip: chromiumMissing ? 'chromium is not installed' : false }, () => {
    let browser: Browser;
    before(async () => { browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }); });
    after(async () => { await browser?.close(); });

    test('the owner follows Next to the second page; axe finds nothing serious', async () => {
      const context = await browser.newContext();
      const p = await context.newPage();
      await p.goto(`${t.baseUrl}/login`);
      await p.fill('#login_field', org.owner.login);
      await p.fill('#password', PASSWORD);
      await p.click('#sign-in');
      await p.goto(`${t.baseUrl}${people}`);
      await p.getByRole('link', { name: 'Next' }).click();
      await p.waitForURL(/\?page=2$/);
      assert.equal(await p.locator('#people li').count(), MEMBERS + 1 - PER_PAGE);
      const axe = await new AxeBuilder({ page: p }).analyze();
      const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), []);
      await context.close();
    });
  });
});
