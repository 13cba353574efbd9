// SCIM 2.0 provisioning at /scim/v2/organizations/{org}/Users, driven with a plain HTTP
// client and RFC 7644 shapes: list (paging, filters), create (409 on a taken userName
// or externalId), get (ETag, 304), replace, patch operations, deactivation and
// deletion (membership, identity and SCIM id removed), SCIM error bodies, and the
// refusals (no SSO, not an owner, a token not authorized for SSO).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addMember, createOrgWithOwner, type CreatedOrg } from './factories/orgs.ts';
import { setPassword, WebClient } from './helpers/web.ts';
import { authorizeFromHeader, enableSso, ssoSignIn, TestIdp } from './helpers/saml-idp.ts';
import { Receiver } from './helpers/webhook-receiver.ts';

const PASSWORD = 'correct horse battery';
const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

interface ScimResponse { status: number; headers: Headers; body: any } // eslint-disable-line @typescript-eslint/no-explicit-any

describe('SCIM provisioning', () => {
  let t: TestServer;
  const idp = new TestIdp();
  let org: CreatedOrg;
  let member: CreatedUser;
  let base: string;
  const receiver = new Receiver();

  async function scim(method: string, path: string, body?: unknown, token = org.owner.token, headers: Record<string, string> = {}): Promise<ScimResponse> {
    const res = await t.request(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, accept: 'application/scim+json', ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }), ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  }

  function person(userName: string, extra: Record<string, unknown> = {}) {
    return {
      schemas: [USER_SCHEMA], userName, displayName: `${userName} Display`, externalId: `ext-${userName}`,
      name: { givenName: 'Mona', familyName: 'Lisa' }, emails: [{ value: `${userName}`, primary: true, type: 'work' }], active: true, ...extra,
    };
  }

  async function browserOf(user: CreatedUser): Promise<WebClient> {
    await setPassword(t, user.login, PASSWORD);
    const web = new WebClient(t);
    assert.equal((await web.signIn(user.login, PASSWORD)).status, 303);
    return web;
  }

  const isMember = async (login: string) => (await t.request(`/orgs/${org.login}/members/${login}`, { token: ADMIN_TOKEN, redirect: 'manual' })).status === 204;

  before(async () => {
    t = await startTestServer({ env: { WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WHARF_WEBHOOK_POLL_MS: '100' } });
    await receiver.start();
    org = await createOrgWithOwner(t);
    await t.octokit(ADMIN_TOKEN).rest.orgs.createWebhook({ org: org.login, name: 'web', events: ['organization'], config: { url: `http://127.0.0.1:${receiver.port}/hook`, content_type: 'json' } });
    member = await addMember(t, org);
    base = `/scim/v2/organizations/${org.login}/Users`;
  });
  after(async () => { await t.close(); await receiver.stop(); });

  test('refused without SSO (404), to a token not authorized for it (403 with the SSO header), to members and anonymous callers', async () => {
    const noSso = await scim('GET', '');
    assert.equal(noSso.status, 404);
    assert.deepEqual(noSso.body.schemas, [ERROR_SCHEMA]);
    assert.equal(noSso.body.status, '404');
    assert.match(noSso.headers.get('content-type')!, /^application\/scim\+json/);

    await enableSso(t, org.login, org.owner.token, idp);
    const unauthorized = await scim('GET', '');
    assert.equal(unauthorized.status, 403);
    assert.deepEqual(unauthorized.body.schemas, [ERROR_SCHEMA]);
    const header = unauthorized.headers.get('x-github-sso');
    assert.ok(header);
    // The owner signs in at the identity provider and authorizes the token.
    const web = await browserOf(org.owner);
    assert.equal((await ssoSignIn(t, web, idp, org.login, `${org.owner.login}@idp.example.test`, new Date())).status, 303);
    assert.equal((await authorizeFromHeader(web, header!)).status, 200);
    assert.equal((await scim('GET', '')).status, 200);

    assert.equal((await scim('GET', '', undefined, member.token)).status, 403);
    const anonymous = await t.request(base);
    assert.equal(anonymous.status, 401);
    assert.deepEqual(((await anonymous.json()) as { schemas: string[] }).schemas, [ERROR_SCHEMA]);
  });

  test('POST provisions (201, SCIM shape); a taken userName or externalId is a 409; bad bodies are 400s', async () => {
    const created = await scim('POST', '', person('ada@idp.example.test', { groups: [{ value: 'g1', display: 'Engineers' }] }));
    assert.equal(created.status, 201);
    assert.match(created.headers.get('content-type')!, /^application\/scim\+json/);
    const u = created.body;
    assert.deepEqual(u.schemas, [USER_SCHEMA]);
    assert.match(u.id, /^[0-9a-f-]{36}$/);
    assert.equal(u.userName, 'ada@idp.example.test');
    assert.equal(u.externalId, 'ext-ada@idp.example.test');
    assert.deepEqual(u.name, { givenName: 'Mona', familyName: 'Lisa', formatted: null });
    assert.deepEqual(u.emails, [{ value: 'ada@idp.example.test', primary: true, type: 'work' }]);
    assert.equal(u.active, true);
    assert.equal(u.meta.resourceType, 'User');
    assert.equal(u.meta.location, `${t.baseUrl}${base}/${u.id}`);
    assert.equal(created.headers.get('location'), u.meta.location);

    const sameName = await scim('POST', '', person('ADA@idp.example.test', { externalId: 'other' }));
    assert.equal(sameName.status, 409);
    assert.deepEqual(sameName.body, { schemas: [ERROR_SCHEMA], status: '409', scimType: 'uniqueness', detail: sameName.body.detail });
    assert.match(sameName.body.detail, /userName/);
    const sameExternal = await scim('POST', '', person('someone-else@idp.example.test', { externalId: 'ext-ada@idp.example.test' }));
    assert.equal(sameExternal.status, 409);
    assert.match(sameExternal.body.detail, /externalId/);

    // Concurrent provisioning of one userName: one 201, the others 409, never a 500.
    const racing = await Promise.all([1, 2, 3, 4].map(() => scim('POST', '', person('race@idp.example.test'))));
    assert.deepEqual(racing.map((r) => r.status).sort(), [201, 409, 409, 409]);

    const missing = await scim('POST', '', { userName: 'x@idp.example.test', name: { givenName: 'a', familyName: 'b' } });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.scimType, 'invalidValue');
    assert.match(missing.body.detail, /emails/);
    const notJson = await scim('POST', '', '{nope');
    assert.equal(notJson.status, 400);
    assert.equal(notJson.body.scimType, 'invalidSyntax');
    assert.equal((await scim('GET', `?filter=${encodeURIComponent('userName eq "x@idp.example.test"')}`)).body.totalResults, 0, 'nothing was stored');
  });

  test('GET lists as a ListResponse with startIndex and count, and filters with eq', async () => {
    for (const n of ['bo', 'cy', 'di']) assert.equal((await scim('POST', '', person(`${n}@idp.example.test`))).status, 201);
    const all = await scim('GET', '');
    assert.deepEqual(all.body.schemas, ['urn:ietf:params:scim:api:messages:2.0:ListResponse']);
    assert.equal(all.body.totalResults, 5);
    assert.equal(all.body.startIndex, 1);
    assert.equal(all.body.itemsPerPage, 5);
    const page = await scim('GET', '?startIndex=3&count=2');
    assert.deepEqual(page.body.Resources.map((r: { userName: string }) => r.userName), ['bo@idp.example.test', 'cy@idp.example.test']);
    assert.equal(page.body.totalResults, 5);
    assert.equal(page.body.startIndex, 3);
    assert.equal((await scim('GET', '?count=0')).body.Resources.length, 0);

    const q = (f: string) => scim('GET', `?filter=${encodeURIComponent(f)}`);
    assert.deepEqual((await q('userName eq "CY@idp.example.test"')).body.Resources.map((r: { userName: string }) => r.userName), ['cy@idp.example.test']);
    assert.equal((await q('emails eq "di@idp.example.test"')).body.Resources[0].userName, 'di@idp.example.test');
    assert.equal((await q('externalId eq "ext-bo@idp.example.test"')).body.Resources[0].userName, 'bo@idp.example.test');
    const id = all.body.Resources[0].id;
    assert.equal((await q(`id eq "${id}"`)).body.Resources[0].id, id);
    const bad = await q('userName co "a"');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.scimType, 'invalidFilter');
  });

  test('GET one answers with an ETag and 304 when unchanged; an unknown id is a SCIM 404', async () => {
    const [first] = (await scim('GET', `?filter=${encodeURIComponent('userName eq "bo@idp.example.test"')}`)).body.Resources;
    const one = await scim('GET', `/${first.id}`);
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, first);
    const etag = one.headers.get('etag')!;
    assert.ok(etag);
    assert.equal((await scim('GET', `/${first.id}`, undefined, org.owner.token, { 'if-none-match': etag })).status, 304);
    const missing = await scim('GET', '/00000000-0000-0000-0000-000000000000');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body.schemas, [ERROR_SCHEMA]);
  });

  test('PUT replaces all data: omitted data is removed', async () => {
    const [cy] = (await scim('GET', `?filter=${encodeURIComponent('userName eq "cy@idp.example.test"')}`)).body.Resources;
    const put = await scim('PUT', `/${cy.id}`, { userName: 'cy@idp.example.test', name: { givenName: 'Cy', familyName: 'New' }, emails: [{ value: 'cy2@idp.example.test' }] });
    assert.equal(put.status, 200);
    assert.equal(put.body.displayName, null);
    assert.equal(put.body.externalId, null);
    assert.deepEqual(put.body.groups, []);
    assert.deepEqual(put.body.emails, [{ value: 'cy2@idp.example.test' }]);
    assert.equal((await scim('GET', `?filter=${encodeURIComponent('emails eq "cy@idp.example.test"')}`)).body.totalResults, 0);
    assert.equal((await scim('PUT', `/${cy.id}`, { userName: 'cy@idp.example.test' })).status, 400, 'name and emails are mandatory');
    assert.equal((await scim('PUT', `/${cy.id}`, person('bo@idp.example.test', { externalId: 'x' }))).status, 409);
  });

  test('PATCH applies add, remove and replace operations; bad operations are 400s and change nothing', async () => {
    const [di] = (await scim('GET', `?filter=${encodeURIComponent('userName eq "di@idp.example.test"')}`)).body.Resources;
    const patched = await scim('PATCH', `/${di.id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [
        { op: 'replace', path: 'displayName', value: 'Di Renamed' },
        { op: 'add', path: 'emails', value: [{ value: 'di.home@example.test', type: 'home' }] },
        { op: 'remove', path: 'externalId' },
        { op: 'Replace', value: { 'name.familyName': 'Patched' } },
        { op: 'replace', path: 'emails[type eq "work"].value', value: 'di.work@idp.example.test' },
      ],
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.displayName, 'Di Renamed');
    assert.equal(patched.body.externalId, null);
    assert.equal(patched.body.name.familyName, 'Patched');
    assert.deepEqual(patched.body.emails.map((e: { value: string }) => e.value).sort(), ['di.home@example.test', 'di.work@idp.example.test']);

    const noTarget = await scim('PATCH', `/${di.id}`, { Operations: [{ op: 'remove' }] });
    assert.equal(noTarget.status, 400);
    assert.equal(noTarget.body.scimType, 'noTarget');
    const badOp = await scim('PATCH', `/${di.id}`, { Operations: [{ op: 'replace', path: 'displayName', value: 'Changed' }, { op: 'explode', path: 'userName', value: 'x' }] });
    assert.equal(badOp.status, 400);
    assert.equal((await scim('GET', `/${di.id}`)).body.displayName, 'Di Renamed', 'a refused patch changes nothing');
    assert.equal((await scim('PATCH', `/${di.id}`, { Operations: [{ op: 'replace', path: 'nickName', value: 'x' }] })).body.scimType, 'invalidPath');
  });

  test('a provisioned person joins by signing in through SSO; active false deprovisions; they can be provisioned again and rejoin', async () => {
    const newbie = await createUser(t);
    const nameId = `${newbie.login}@idp.example.test`;
    const created = (await scim('POST', '', person(nameId))).body;
    assert.equal(await isMember(newbie.login), false, 'an invitation until signed in');
    const web = await browserOf(newbie);
    assert.equal((await ssoSignIn(t, web, idp, org.login, nameId, new Date())).status, 303);
    assert.equal(await isMember(newbie.login), true, 'signing in accepted the invitation');

    const off = await scim('PATCH', `/${created.id}`, { Operations: [{ op: 'replace', value: { active: 'False' } }] });
    assert.equal(off.status, 200);
    assert.equal(off.body.active, false);
    assert.equal((await scim('GET', `/${created.id}`)).status, 404, 'the SCIM id is gone');
    assert.equal(await isMember(newbie.login), false, 'the membership is gone');

    // The identity was unlinked too: provisioned again, the same person signs in and rejoins.
    const again = (await scim('POST', '', person(nameId))).body;
    assert.notEqual(again.id, created.id);
    assert.equal((await ssoSignIn(t, web, idp, org.login, nameId, new Date())).status, 303);
    assert.equal(await isMember(newbie.login), true);

    // PUT with active false deprovisions as well.
    const put = await scim('PUT', `/${again.id}`, person(nameId, { active: false }));
    assert.equal(put.status, 200);
    assert.equal(put.body.active, false);
    assert.equal(await isMember(newbie.login), false);

    // Each join and removal is an organization webhook, as upstream sends them.
    const about = (action: string) => (r: { headers: Record<string, unknown>; body: string }) => r.headers['x-github-event'] === 'organization'
      && JSON.parse(r.body).action === action && JSON.parse(r.body).membership?.user?.login === newbie.login;
    const added = await receiver.waitFor(2, about('member_added'));
    const removed = await receiver.waitFor(2, about('member_removed'));
    const payload = JSON.parse(removed[0]!.body);
    assert.equal(payload.organization.login, org.login);
    assert.equal(payload.sender.login, org.owner.login);
    assert.equal(payload.membership.role, 'member');
    assert.equal(JSON.parse(added[0]!.body).sender.login, newbie.login);
  });

  test('a sweep of odd bodies never gets a 500, and every refusal is a SCIM error body', async () => {
    const target = (await scim('POST', '', person('sweep@idp.example.test'))).body;
    const values: unknown[] = [null, -1, 1.5, '', [], {}, [null], [{}], true, '\u0000', { value: 1 }];
    const sent: [string, string, unknown][] = [];
    for (const v of values) {
      for (const field of ['userName', 'name', 'emails', 'externalId', 'groups', 'active', 'displayName']) {
        sent.push(['POST', '', { ...person('sweep2@idp.example.test'), [field]: v }]);
        sent.push(['PUT', `/${target.id}`, { ...person('sweep@idp.example.test'), [field]: v }]);
      }
      for (const path of [undefined, 'name', 'emails', 'groups', 'active', 'userName', 'name.givenName', 'emails[type eq "work"].value']) {
        for (const op of ['add', 'replace', 'remove']) sent.push(['PATCH', `/${target.id}`, { Operations: [{ op, ...(path ? { path } : {}), value: v }] }]);
      }
      sent.push(['PATCH', `/${target.id}`, { Operations: v }]);
    }
    const problems: string[] = [];
    for (const [method, path, body] of sent) {
      const res = await scim(method, path, body);
      if (res.status >= 500 || (res.status >= 400 && res.body?.schemas?.[0] !== ERROR_SCHEMA)) problems.push(`${res.status} ${method} ${JSON.stringify(body).slice(0, 100)}`);
    }
    assert.deepEqual(problems, []);
  });

  test('DELETE deprovisions: 204, then 404', async () => {
    const u = (await scim('POST', '', person('gone@idp.example.test'))).body;
    assert.equal((await scim('DELETE', `/${u.id}`)).status, 204);
    assert.equal((await scim('GET', `/${u.id}`)).status, 404);
    assert.equal((await scim('DELETE', `/${u.id}`)).status, 404);
    assert.equal((await scim('GET', `?filter=${encodeURIComponent('userName eq "gone@idp.example.test"')}`)).body.totalResults, 0);
  });
});
