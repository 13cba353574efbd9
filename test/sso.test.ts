// Organization SAML single sign-on: the owner's settings, the service provider's
// metadata, sign-in through an identity provider played by the test (its own key, its
// own signed assertions), the refusals (bad signature, wrong audience, expired,
// replayed, not a member, identity of another account), and the token gate: a member's
// token reaches the organization's private resources only once authorized for its SSO.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addMember, createOrgWithOwner, type CreatedOrg } from './factories/orgs.ts';
import { createRepo, type CreatedRepo } from './factories/repos.ts';
import { requestJson } from './helpers/json-request.ts';
import { setPassword, WebClient } from './helpers/web.ts';
import { authorizeFromHeader, enableSso, makeKeyPair, postResponse, ssoSignIn, startLogin, TestIdp } from './helpers/saml-idp.ts';

const PASSWORD = 'correct horse battery';

describe('organization SAML single sign-on', () => {
  let t: TestServer;
  const clock = new TestClock();
  const idp = new TestIdp();
  let org: CreatedOrg;
  let member: CreatedUser;
  let secret: CreatedRepo;
  let open: CreatedRepo;
  /** The SSO header of the member's second token, never authorized. */
  let secondTokenHeader: string;

  async function browserOf(user: CreatedUser): Promise<WebClient> {
    await setPassword(t, user.login, PASSWORD);
    const web = new WebClient(t);
    assert.equal((await web.signIn(user.login, PASSWORD)).status, 303);
    return web;
  }

  before(async () => {
    t = await startTestServer({ clock });
    org = await createOrgWithOwner(t);
    member = await addMember(t, org);
    secret = await createRepo(t, org.owner, { org: org.login, private: true });
    open = await createRepo(t, org.owner, { org: org.login });
  });
  after(async () => { await t.close(); });

  test('an owner sets the identity provider; bad settings are a 422; members may not', async () => {
    const bad = await requestJson(t, 'PUT', `/orgs/${org.login}/sso/configuration`, org.owner.token, { idp_entity_id: 'x', sso_url: 'ftp://nope', certificate: 'not a certificate' });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.errors.map((e: { field: string }) => e.field).sort(), ['certificate', 'sso_url']);
    const byMember = await requestJson(t, 'PUT', `/orgs/${org.login}/sso/configuration`, member.token, { idp_entity_id: idp.entityId, sso_url: idp.ssoUrl, certificate: idp.keys.cert });
    assert.equal(byMember.status, 403);
    const off = await requestJson(t, 'GET', `/orgs/${org.login}/sso/configuration`, org.owner.token);
    assert.equal(off.body.enabled, false);
    assert.equal((await t.request(`/orgs/${org.login}/sso/metadata`)).status, 404, 'no metadata without SSO');

    await enableSso(t, org.login, org.owner.token, idp);
    const on = await requestJson(t, 'GET', `/orgs/${org.login}/sso/configuration`, ADMIN_TOKEN);
    assert.equal(on.status, 200);
    assert.equal(on.body.enabled, true);
    assert.equal(on.body.idp_entity_id, idp.entityId);
    assert.equal(on.body.acs_url, `${t.baseUrl}/orgs/${org.login}/saml/consume`);
    assert.match(on.body.certificate_fingerprint, /^[0-9A-F:]{95}$/);

    const metadata = await t.request(`/orgs/${org.login}/sso/metadata`);
    assert.equal(metadata.status, 200);
    const xml = await metadata.text();
    assert.match(xml, new RegExp(`entityID="${t.baseUrl}/orgs/${org.login}"`));
    assert.match(xml, new RegExp(`Location="${t.baseUrl}/orgs/${org.login}/saml/consume"`));
  });

  test("a token not authorized for the organization's SSO gets 403 with the SSO header; public data, site admins and outsiders are unaffected", async () => {
    const refused = await t.request(`/repos/${org.login}/${secret.repo}`, { token: member.token });
    assert.equal(refused.status, 403);
    const header = refused.headers.get('x-github-sso');
    assert.match(header ?? '', new RegExp(`^required; url=${t.baseUrl}/orgs/${org.login}/sso\\?authorization_request=\\d+$`));
    assert.equal(refused.headers.get('x-service-sso'), header);
    assert.match(((await refused.json()) as { message: string }).message, /SAML enforcement/);
    // Owner-only organization routes ask the same question (the owner's token too).
    const ownerRefused = await t.request(`/orgs/${org.login}/sso/configuration`, { token: org.owner.token });
    assert.equal(ownerRefused.status, 403);
    assert.ok(ownerRefused.headers.get('x-github-sso'));
    assert.equal((await t.request(`/repos/${org.login}/${open.repo}`, { token: member.token })).status, 200, 'public repositories stay readable');
    assert.equal((await t.request(`/repos/${org.login}/${secret.repo}`, { token: ADMIN_TOKEN })).status, 200, 'site admins are not gated');
    const outsider = await createUser(t);
    const hidden = await t.request(`/repos/${org.login}/${secret.repo}`, { token: outsider.token });
    assert.equal(hidden.status, 404, 'a non-member learns nothing');
    assert.equal(hidden.headers.get('x-github-sso'), null);
    // git over HTTP asks the same question.
    const basic = `Basic ${Buffer.from(`${member.login}:${member.token}`).toString('base64')}`;
    const gitRefused = await t.request(`/${org.login}/${secret.repo}.git/info/refs?service=git-upload-pack`, { headers: { authorization: basic } });
    assert.equal(gitRefused.status, 403);
    assert.equal(gitRefused.headers.get('x-github-sso'), header);
    // The repository list leaves the gated repository out.
    const { data: list } = await t.octokit(member.token).rest.repos.listForOrg({ org: org.login });
    assert.deepEqual(list.map((r) => r.name), [open.repo]);
  });

  test('the assertion consumer refuses a bad signature, a wrong audience or issuer, an expired, unsolicited or replayed response', async () => {
    const web = await browserOf(member);
    const nameId = `${member.login}@idp.example.test`;
    const other = makeKeyPair();

    let login = await startLogin(web, `/orgs/${org.login}/sso`);
    const forged = await postResponse(web, org.login, idp.response(t, { requestId: login.requestId, nameId, org: org.login, now: clock.now(), signingKey: other.key }), null);
    assert.equal(forged.status, 403);
    assert.match(forged.body, /could not be verified/);

    login = await startLogin(web, `/orgs/${org.login}/sso`);
    const elsewhere = await postResponse(web, org.login, idp.response(t, { requestId: login.requestId, nameId, org: org.login, now: clock.now(), audience: 'https://other.example.test' }), null);
    assert.equal(elsewhere.status, 403);

    login = await startLogin(web, `/orgs/${org.login}/sso`);
    const impostor = await postResponse(web, org.login, idp.response(t, { requestId: login.requestId, nameId, org: org.login, now: clock.now(), issuer: 'https://impostor.example.test' }), null);
    assert.equal(impostor.status, 403, 'another issuer, though signed with the right key');

    login = await startLogin(web, `/orgs/${org.login}/sso`);
    const stale = idp.response(t, { requestId: login.requestId, nameId, org: org.login, now: clock.now(), validSeconds: 120 });
    clock.advance(5 * 60 * 1000);
    assert.equal((await postResponse(web, org.login, stale, null)).status, 403, 'expired (beyond the clock skew)');

    // A response to a request that was never made.
    assert.equal((await postResponse(web, org.login, idp.response(t, { requestId: '_never-asked', nameId, org: org.login, now: clock.now() }), null)).status, 403);

    login = await startLogin(web, `/orgs/${org.login}/sso?return_to=/settings/password`);
    const good = idp.response(t, { requestId: login.requestId, nameId, org: org.login, now: clock.now() });
    const ok = await postResponse(web, org.login, good, login.relayState);
    assert.equal(ok.status, 303, ok.body.slice(0, 300));
    assert.equal(ok.location, '/settings/password');
    const replay = await postResponse(web, org.login, good, login.relayState);
    assert.equal(replay.status, 403, 'a response is used once');
    assert.doesNotMatch(replay.body, /Token authorized/);
  });

  test('after signing in through SSO the member authorizes the token and reaches the private repository', async () => {
    const web = await browserOf(member);
    const refused = await t.request(`/repos/${org.login}/${secret.repo}`, { token: member.token });
    const header = refused.headers.get('x-github-sso')!;
    // Without an SSO sign-in in this browser, the authorization address starts one.
    const url = new URL(/url=(\S+)/.exec(header)![1]!);
    const started = await startLogin(web, `${url.pathname}${url.search}`);
    const back = await postResponse(web, org.login, idp.response(t, { requestId: started.requestId, nameId: `${member.login}@idp.example.test`, org: org.login, now: clock.now() }), started.relayState);
    assert.equal(back.status, 303);
    assert.equal(back.location, `${url.pathname}${url.search}`, 'back to the authorization page');
    const authorized = await authorizeFromHeader(web, header);
    assert.equal(authorized.status, 200);
    assert.match(authorized.body, /Token authorized/);
    assert.equal((await t.request(`/repos/${org.login}/${secret.repo}`, { token: member.token })).status, 200);
    const basic = `Basic ${Buffer.from(`${member.login}:${member.token}`).toString('base64')}`;
    assert.equal((await t.request(`/${org.login}/${secret.repo}.git/info/refs?service=git-upload-pack`, { headers: { authorization: basic } })).status, 200);
    // Another token of the same member is still refused: authorization is per token.
    const { data } = await t.octokit(ADMIN_TOKEN).request('POST /admin/users/{username}/authorizations', { username: member.login, scopes: ['repo'] });
    const second = await t.request(`/repos/${org.login}/${secret.repo}`, { token: data.token as string });
    assert.equal(second.status, 403);
    secondTokenHeader = second.headers.get('x-github-sso')!;
  });

  test('sign-in is refused to non-members and for an identity linked to another account', async () => {
    const outsider = await createUser(t);
    const outsiderWeb = await browserOf(outsider);
    const notMember = await ssoSignIn(t, outsiderWeb, idp, org.login, `${outsider.login}@idp.example.test`, clock.now());
    assert.equal(notMember.status, 403);
    assert.match(notMember.body, /not a member/);

    // The owner's token is gated by now: the site admin adds the member.
    const second = await createUser(t);
    await t.octokit(ADMIN_TOKEN).rest.orgs.setMembershipForUser({ org: org.login, username: second.login, role: 'member' });
    const secondWeb = await browserOf(second);
    const taken = await ssoSignIn(t, secondWeb, idp, org.login, `${member.login}@idp.example.test`, clock.now());
    assert.equal(taken.status, 403);
    assert.match(taken.body, /linked to another account/);

    // Nobody authorizes another user's token, nor their own without an SSO sign-in.
    const foreign = new URL(/url=(\S+)/.exec(secondTokenHeader)![1]!);
    assert.equal((await secondWeb.get(`${foreign.pathname}${foreign.search}`)).status, 404);
    const own = await t.request(`/repos/${org.login}/${secret.repo}`, { token: second.token });
    const ownId = /authorization_request=(\d+)/.exec(own.headers.get('x-github-sso')!)![1]!;
    const settings = await secondWeb.get('/settings');
    const csrf = /name="authenticity_token" value="([0-9a-f]{64})"/.exec(settings.body)![1]!;
    const early = await secondWeb.post(`/orgs/${org.login}/sso/authorize`, { authenticity_token: csrf, token_id: ownId });
    assert.equal(early.status, 403);
    assert.match(early.body, /Sign in through the organization/);
    assert.equal((await t.request(`/repos/${org.login}/${secret.repo}`, { token: second.token })).status, 403);
  });

  test('owners list and revoke credential authorizations; revoking gates the token again', async () => {
    const ownerWeb = await browserOf(org.owner);
    assert.equal((await ssoSignIn(t, ownerWeb, idp, org.login, `${org.owner.login}@idp.example.test`, clock.now())).status, 303);
    const refused = await t.request(`/orgs/${org.login}/credential-authorizations`, { token: org.owner.token });
    assert.equal((await authorizeFromHeader(ownerWeb, refused.headers.get('x-github-sso')!)).status, 200);

    const list = await requestJson(t, 'GET', `/orgs/${org.login}/credential-authorizations`, org.owner.token);
    assert.equal(list.status, 200);
    const mine = list.body.find((a: { login: string }) => a.login === member.login);
    assert.equal(mine.credential_type, 'personal access token');
    assert.equal(mine.token_last_eight, member.token.slice(-8));
    const filtered = await requestJson(t, 'GET', `/orgs/${org.login}/credential-authorizations?login=${member.login}`, org.owner.token);
    assert.deepEqual(filtered.body.map((a: { login: string }) => a.login), [member.login]);
    assert.equal((await requestJson(t, 'GET', `/orgs/${org.login}/credential-authorizations`, member.token)).status, 403, 'members may not list');

    assert.equal((await requestJson(t, 'DELETE', `/orgs/${org.login}/credential-authorizations/${mine.credential_id}`, org.owner.token)).status, 204);
    assert.equal((await requestJson(t, 'DELETE', `/orgs/${org.login}/credential-authorizations/${mine.credential_id}`, org.owner.token)).status, 404);
    assert.equal((await t.request(`/repos/${org.login}/${secret.repo}`, { token: member.token })).status, 403);
  });

  test('turning SSO off lifts the gate', async () => {
    assert.equal((await requestJson(t, 'DELETE', `/orgs/${org.login}/sso/configuration`, org.owner.token)).status, 204);
    assert.equal((await t.request(`/repos/${org.login}/${secret.repo}`, { token: member.token })).status, 200);
    assert.equal((await t.request(`/orgs/${org.login}/sso`, { redirect: 'manual' })).status, 302, 'the login page sends anonymous browsers to sign in first');
  });

  test('the owner can set and turn off SSO from the settings page; members may not', async () => {
    const web = await browserOf(org.owner);
    const form = await web.get(`/orgs/${org.login}/settings/sso`);
    assert.equal(form.status, 200);
    assert.match(form.body, /Not enabled/);
    assert.match(form.body, new RegExp(`${t.baseUrl}/orgs/${org.login}/saml/consume`));
    const csrf = /name="authenticity_token" value="([0-9a-f]{64})"/.exec(form.body)![1]!;
    const bad = await web.post(`/orgs/${org.login}/settings/sso`, { authenticity_token: csrf, idp_entity_id: idp.entityId, sso_url: idp.ssoUrl, certificate: 'nope' });
    assert.equal(bad.status, 422);
    assert.match(bad.body, /certificate must be an X\.509 certificate/);
    assert.equal((await requestJson(t, 'GET', `/orgs/${org.login}/sso/configuration`, ADMIN_TOKEN)).body.enabled, false, 'nothing was saved');
    assert.equal((await web.post(`/orgs/${org.login}/settings/sso`, { idp_entity_id: idp.entityId, sso_url: idp.ssoUrl, certificate: idp.keys.cert })).status, 403, 'CSRF is checked');
    const saved = await web.post(`/orgs/${org.login}/settings/sso`, { authenticity_token: csrf, idp_entity_id: idp.entityId, sso_url: idp.ssoUrl, certificate: idp.keys.cert });
    assert.equal(saved.status, 200);
    assert.match(saved.body, /Enabled\. Certificate fingerprint/);
    assert.equal((await requestJson(t, 'GET', `/orgs/${org.login}/sso/configuration`, ADMIN_TOKEN)).body.idp_entity_id, idp.entityId);
    const memberWeb = await browserOf(member);
    assert.equal((await memberWeb.get(`/orgs/${org.login}/settings/sso`)).status, 403);
    const off = await web.post(`/orgs/${org.login}/settings/sso/disable`, { authenticity_token: csrf });
    assert.equal(off.status, 200);
    assert.match(off.body, /Not enabled/);
  });
});
