// Organization rulesets through Octokit and the git binary: CRUD of /orgs/{org}/rulesets
// (records checked against the published OpenAPI schemas, repository_ruleset webhooks
// to the organization's hooks), owners only (404 to members and outsiders), bad
// conditions and rules refused with nothing changed, protected names kept from renames;
// the repositories they cover read them (includes_parents, …/rules/branches) and have
// them enforced: a force push to
// main of a covered repository is refused with GH013, of an uncovered one accepted.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failsWith } from './helpers/failures.ts';
import { requestJson } from './helpers/json-request.ts';
import { createToken, createUser, type CreatedUser } from './factories/accounts.ts';
import { addMember, createOrgWithOwner, type CreatedOrg } from './factories/orgs.ts';
import { cloneAs, commitFiles, uniqueName, type Clone } from './factories/pulls.ts';
import { git, gitOk } from './helpers/git.ts';
import { headerOf, Receiver } from './helpers/webhook-receiver.ts';
import { assertMatchesWebhookSchema } from './helpers/webhook-schema.ts';

let t: TestServer;
const receiver = new Receiver();
const ENV = { WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,::1', WHARF_WEBHOOK_RETRY_BASE_MS: '100', WHARF_WEBHOOK_POLL_MS: '200' };
before(async () => { await receiver.start(); t = await startTestServer({ env: ENV }); });
after(async () => { await t.close(); await receiver.stop(); });

const ORG_RULESETS = '/orgs/{org}/rulesets';
const ORG_RULESET = '/orgs/{org}/rulesets/{ruleset_id}';

async function orgRows(orgId: number) {
  return t.server.ctx.db.selectFrom('repository_rulesets').select(['id', 'name', 'enforcement', 'rules', 'repository_conditions'])
    .where('organization_id', '=', orgId).orderBy('id').execute();
}

async function orgEvents(orgId: number) {
  const found = await t.server.ctx.db.selectFrom('outbox').select(['action', 'repository_id', 'payload'])
    .where('event', '=', 'repository_ruleset').where('organization_id', '=', orgId).orderBy('id').execute();
  return found.map((e) => ({ action: e.action, repositoryId: e.repository_id, payload: JSON.parse(e.payload) as Record<string, unknown> }));
}

async function orgRepo(org: CreatedOrg, name: string): Promise<{ name: string; id: number }> {
  const { data } = await t.octokit(org.owner.token).rest.repos.createInOrg({ org: org.login, name, auto_init: true });
  return { name: data.name, id: data.id };
}

const noForcePush = { type: 'non_fast_forward' as const };

describe('/orgs/{org}/rulesets: create, read, list, update, delete', () => {
  let org: CreatedOrg;
  let member: CreatedUser;
  let api: { name: string; id: number };
  let web: { name: string; id: number };
  before(async () => {
    org = await createOrgWithOwner(t, ['repo', 'user', 'admin:org', 'admin:org_hook']);
    member = await addMember(t, org);
    api = await orgRepo(org, `api-${uniqueName()}`);
    web = await orgRepo(org, `web-${uniqueName()}`);
    await t.octokit(org.owner.token).rest.orgs.createWebhook({
      org: org.login, name: 'web', events: ['repository_ruleset'], config: { url: receiver.url(`/${org.login}`), content_type: 'json' },
    });
  });

  test('POST answers the published record (201) with source_type Organization; GET, the list and PUT follow it; the org hooks hear each change', async () => {
    const kit = t.octokit(org.owner.token);
    const res = await kit.rest.repos.createOrgRuleset({
      org: org.login, name: 'api main', enforcement: 'active',
      bypass_actors: [{ actor_type: 'OrganizationAdmin', bypass_mode: 'pull_request' }],
      conditions: { ref_name: { include: ['~DEFAULT_BRANCH'], exclude: [] }, repository_name: { include: ['api-*'], exclude: [], protected: true } },
      rules: [noForcePush, { type: 'commit_message_pattern', parameters: { operator: 'contains', pattern: '#' } }],
    });
    assert.equal(res.status, 201);
    assertMatchesOpenApi('POST', ORG_RULESETS, 201, res.data);
    const id = res.data.id;
    assert.equal(res.headers.location, `${t.baseUrl}/orgs/${org.login}/rulesets/${id}`);
    assert.equal(res.data.source_type, 'Organization');
    assert.equal(res.data.source, org.login);
    assert.equal(res.data.current_user_can_bypass, 'pull_requests_only');
    assert.deepEqual(res.data.conditions, {
      ref_name: { include: ['~DEFAULT_BRANCH'], exclude: [] }, repository_name: { include: ['api-*'], exclude: [], protected: true },
    });
    assert.equal(res.data._links?.self?.href, `${t.baseUrl}/orgs/${org.login}/rulesets/${id}`);

    const got = await kit.rest.repos.getOrgRuleset({ org: org.login, ruleset_id: id });
    assertMatchesOpenApi('GET', ORG_RULESET, 200, got.data);
    assert.deepEqual(got.data, res.data);
    const list = await kit.rest.repos.getOrgRulesets({ org: org.login });
    assertMatchesOpenApi('GET', ORG_RULESETS, 200, list.data);
    assert.deepEqual(list.data.map((r) => [r.id, r.name, r.source_type]), [[id, 'api main', 'Organization']]);
    // Each item is the whole record, as GET answers it.
    assert.deepEqual(list.data, [got.data]);

    // Conditions given replace the stored ones whole: now by repository id.
    const put = await kit.rest.repos.updateOrgRuleset({
      org: org.login, ruleset_id: id, name: 'two repos', enforcement: 'evaluate',
      conditions: { ref_name: { include: ['~ALL'], exclude: [] }, repository_id: { repository_ids: [api.id, web.id] } },
    });
    assertMatchesOpenApi('PUT', ORG_RULESET, 200, put.data);
    assert.deepEqual(put.data.conditions, { ref_name: { include: ['~ALL'], exclude: [] }, repository_id: { repository_ids: [api.id, web.id] } });
    assert.deepEqual(put.data.rules, res.data.rules);
    assert.deepEqual((await orgRows(org.id)).map((r) => [r.name, r.enforcement]), [['two repos', 'evaluate']]);

    const del = await kit.rest.repos.deleteOrgRuleset({ org: org.login, ruleset_id: id });
    assert.equal(del.status, 204);
    assert.deepEqual(await orgRows(org.id), []);
    await failsWith(kit.rest.repos.getOrgRuleset({ org: org.login, ruleset_id: id }), 404);

    const hooks = await orgEvents(org.id);
    assert.deepEqual(hooks.map((e) => [e.action, e.repositoryId]), [['created', null], ['edited', null], ['deleted', null]]);
    assert.deepEqual(hooks[1]!.payload.changes, { name: { from: 'api main' }, enforcement: { from: 'active' } });
    const delivered = await receiver.waitFor(3, (r) => r.path === `/${org.login}` && headerOf(r, 'x-github-event') !== 'ping');
    for (const [i, action] of (['created', 'edited', 'deleted'] as const).entries()) {
      assert.equal(headerOf(delivered[i]!, 'x-github-event'), 'repository_ruleset');
      const body = JSON.parse(delivered[i]!.body) as { action: string; repository_ruleset: { id: number; source_type: string }; organization: { login: string }; repository?: unknown };
      assertMatchesWebhookSchema('repository_ruleset', action, body);
      assert.equal(body.repository_ruleset.id, id);
      assert.equal(body.repository_ruleset.source_type, 'Organization');
      assert.equal(body.organization.login, org.login);
      assert.equal(body.repository, undefined);
    }
  });

  test('bad conditions and rules are a 422 with the error body, and change nothing', async () => {
    const kit = t.octokit(org.owner.token);
    const kept = await kit.rest.repos.createOrgRuleset({
      org: org.login, name: 'kept', enforcement: 'disabled', conditions: { ref_name: { include: ['~ALL'], exclude: [] }, repository_name: { include: ['~ALL'], exclude: [] } },
    });
    const before = await orgRows(org.id);
    const post = (body: Record<string, unknown>) => requestJson(t, 'POST', `/orgs/${org.login}/rulesets`, org.owner.token, { name: 'x', enforcement: 'active', ...body });
    const refs = { include: ['~DEFAULT_BRANCH'], exclude: [] };

    const none = await post({ conditions: { ref_name: refs } });
    assert.equal(none.status, 422);
    assert.deepEqual(none.body.errors, [{ resource: 'Ruleset', field: 'conditions', code: 'invalid', message: 'Invalid conditions: repository_name or repository_id is required' }]);
    assert.equal((await post({})).status, 422);
    const noRefs = await post({ conditions: { repository_name: { include: ['*'] } } });
    assert.equal(noRefs.status, 422);
    assert.match(noRefs.body.errors[0].message, /ref_name is required for branch and tag rulesets/);
    const both = await post({ conditions: { ref_name: refs, repository_name: { include: ['*'] }, repository_id: { repository_ids: [api.id] } } });
    assert.equal(both.status, 422);
    assert.match(both.body.errors[0].message, /not both/);
    const property = await post({ conditions: { ref_name: refs, repository_property: { include: [{ name: 'team', property_values: ['a'] }] } } });
    assert.equal(property.status, 422);
    assert.match(property.body.errors[0].message, /repository_property/);
    // A repository of someone else is no repository of this organization.
    const stranger = await createUser(t);
    const theirs = await t.octokit(stranger.token).rest.repos.createForAuthenticatedUser({ name: uniqueName() });
    const foreign = await post({ conditions: { ref_name: refs, repository_id: { repository_ids: [theirs.data.id] } } });
    assert.equal(foreign.status, 422);
    assert.match(foreign.body.errors[0].message, new RegExp(`repository ${theirs.data.id} is not a repository of this organization`));
    const badIds = await post({ conditions: { ref_name: refs, repository_id: { repository_ids: ['one'] } } });
    assert.equal(badIds.status, 422);
    const badProtected = await post({ conditions: { ref_name: refs, repository_name: { include: ['*'], protected: 'yes' } } });
    assert.equal(badProtected.status, 422);
    const badRegex = await post({
      conditions: { ref_name: refs, repository_name: { include: ['*'] } },
      rules: [{ type: 'commit_message_pattern', parameters: { operator: 'regex', pattern: '(unclosed' } }],
    });
    assert.equal(badRegex.status, 422);
    assert.deepEqual(badRegex.body.errors, [{ resource: 'Ruleset', field: 'rules', code: 'invalid', message: "Invalid rule 'commit_message_pattern': pattern is not a valid regular expression" }]);
    const badTarget = await post({ target: 'everything', conditions: { ref_name: refs, repository_name: { include: ['*'] } } });
    assert.equal(badTarget.status, 422);
    const dup = await post({ name: 'kept', conditions: { ref_name: refs, repository_name: { include: ['*'] } } });
    assert.equal(dup.status, 422);
    assert.equal(dup.body.errors[0].code, 'already_exists');
    const badPut = await requestJson(t, 'PUT', `/orgs/${org.login}/rulesets/${kept.data.id}`, org.owner.token, { conditions: { ref_name: refs } });
    assert.equal(badPut.status, 422);
    assert.deepEqual(await orgRows(org.id), before);
    await kit.rest.repos.deleteOrgRuleset({ org: org.login, ruleset_id: kept.data.id });
  });

  test('repository_name.protected: an active ruleset keeps its repositories from being renamed, bypass actors aside', async () => {
    const kit = t.octokit(org.owner.token);
    const rs = await kit.rest.repos.createOrgRuleset({
      org: org.login, name: 'names stay', enforcement: 'active',
      conditions: { ref_name: { include: [], exclude: [] }, repository_name: { include: ['api-*'], exclude: [], protected: true } },
    });
    const renamed = `api-renamed-${uniqueName()}`;
    const e = await failsWith(kit.rest.repos.update({ owner: org.login, repo: api.name, name: renamed }), 422);
    assert.equal(e.message, 'Repository rule violations found\n\nThis repository\'s name is protected by the ruleset "names stay".\n\n');
    assert.equal((await kit.rest.repos.get({ owner: org.login, repo: api.name })).data.name, api.name);
    // A repository the ruleset does not cover is renamed as before; so is this one once it is not active.
    const webRenamed = `web-renamed-${uniqueName()}`;
    assert.equal((await kit.rest.repos.update({ owner: org.login, repo: web.name, name: webRenamed })).data.name, webRenamed);
    web = { ...web, name: webRenamed };
    await kit.rest.repos.updateOrgRuleset({ org: org.login, ruleset_id: rs.data.id, bypass_actors: [{ actor_type: 'OrganizationAdmin', bypass_mode: 'always' }] });
    assert.equal((await kit.rest.repos.update({ owner: org.login, repo: api.name, name: renamed })).data.name, renamed);
    await kit.rest.repos.update({ owner: org.login, repo: renamed, name: api.name });
    await kit.rest.repos.deleteOrgRuleset({ org: org.login, ruleset_id: rs.data.id });
  });

  test('members, outsiders and anonymous callers get 404 (401 without a token); unknown ids and organizations are 404', async () => {
    const kit = t.octokit(org.owner.token);
    const made = await kit.rest.repos.createOrgRuleset({
      org: org.login, name: 'owners only', enforcement: 'active', conditions: { ref_name: { include: ['~ALL'], exclude: [] }, repository_name: { include: ['~ALL'], exclude: [] } },
    });
    const outsider = await createUser(t);
    for (const who of [member, outsider]) {
      const k = t.octokit(who.token);
      await failsWith(k.rest.repos.getOrgRulesets({ org: org.login }), 404);
      await failsWith(k.rest.repos.getOrgRuleset({ org: org.login, ruleset_id: made.data.id }), 404);
      await failsWith(k.rest.repos.createOrgRuleset({ org: org.login, name: 'mine', enforcement: 'active' }), 404);
      await failsWith(k.rest.repos.updateOrgRuleset({ org: org.login, ruleset_id: made.data.id, name: 'mine' }), 404);
      await failsWith(k.rest.repos.deleteOrgRuleset({ org: org.login, ruleset_id: made.data.id }), 404);
    }
    assert.equal((await requestJson(t, 'GET', `/orgs/${org.login}/rulesets`, undefined)).status, 401);
    // An owner's token needs admin:org to change them, an organization-reading scope to read them.
    const repoOnly = t.octokit(await createToken(t, org.owner.login, ['repo']));
    await failsWith(repoOnly.rest.repos.createOrgRuleset({ org: org.login, name: 'scoped', enforcement: 'active' }), 403);
    await failsWith(repoOnly.rest.repos.getOrgRulesets({ org: org.login }), 403);
    const readOnly = t.octokit(await createToken(t, org.owner.login, ['read:org']));
    assert.equal((await readOnly.rest.repos.getOrgRulesets({ org: org.login })).status, 200);
    await failsWith(readOnly.rest.repos.deleteOrgRuleset({ org: org.login, ruleset_id: made.data.id }), 403);
    await failsWith(kit.rest.repos.getOrgRuleset({ org: org.login, ruleset_id: 999999 }), 404);
    await failsWith(kit.rest.repos.getOrgRulesets({ org: `no-such-${uniqueName()}` }), 404);
    // A repository's ruleset is not the organization's, nor the other way round.
    const own = await kit.rest.repos.createRepoRuleset({ owner: org.login, repo: api.name, name: 'repo own', enforcement: 'disabled' });
    await failsWith(kit.rest.repos.getOrgRuleset({ org: org.login, ruleset_id: own.data.id }), 404);
    await failsWith(kit.rest.repos.updateRepoRuleset({ owner: org.login, repo: api.name, ruleset_id: made.data.id, name: 'hijack' }), 404);
    await failsWith(kit.rest.repos.deleteRepoRuleset({ owner: org.login, repo: api.name, ruleset_id: made.data.id }), 404);
    assert.equal((await orgRows(org.id)).find((r) => r.id === made.data.id)?.name, 'owners only');
    await kit.rest.repos.deleteOrgRuleset({ org: org.login, ruleset_id: made.data.id });
    await kit.rest.repos.deleteRepoRuleset({ owner: org.login, repo: api.name, ruleset_id: own.data.id });
  });
});

describe('organization rulesets in the repositories they cover', () => {
  let org: CreatedOrg;
  let member: CreatedUser;
  let covered: { name: string; id: number };
  let spared: { name: string; id: number };
  let rsId: number;
  let ownerClone: Clone;
  let sparedClone: Clone;
  before(async () => {
    org = await createOrgWithOwner(t);
    member = await addMember(t, org);
    covered = await orgRepo(org, `svc-${uniqueName()}`);
    spared = await orgRepo(org, `sandbox-${uniqueName()}`);
    rsId = (await t.octokit(org.owner.token).rest.repos.createOrgRuleset({
      org: org.login, name: 'no rewrites anywhere', enforcement: 'active',
      conditions: { ref_name: { include: ['~DEFAULT_BRANCH'], exclude: [] }, repository_name: { include: ['*'], exclude: ['sandbox-*'] } },
      rules: [noForcePush],
    })).data.id;
    ownerClone = await cloneAs(t, org.login, covered.name, org.owner);
    sparedClone = await cloneAs(t, org.login, spared.name, org.owner);
    await commitFiles(ownerClone, { 'a.txt': 'a\n' }, 'Add a');
    await gitOk(['push', '-q', 'origin', 'main'], { cwd: ownerClone.dir });
    await commitFiles(sparedClone, { 'a.txt': 'a\n' }, 'Add a');
    await gitOk(['push', '-q', 'origin', 'main'], { cwd: sparedClone.dir });
  });

  test('…/rulesets includes the organization\'s (includes_parents, true unless false); …/rulesets/{id} and …/rules/branches show it', async () => {
    const kit = t.octokit(member.token);
    const listed = await kit.rest.repos.getRepoRulesets({ owner: org.login, repo: covered.name });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/rulesets', 200, listed.data);
    assert.deepEqual(listed.data.map((r) => [r.id, r.source_type, r.source]), [[rsId, 'Organization', org.login]]);
    assert.equal(listed.data[0]!._links?.self?.href, `${t.baseUrl}/orgs/${org.login}/rulesets/${rsId}`);
    assert.deepEqual((await kit.rest.repos.getRepoRulesets({ owner: org.login, repo: covered.name, includes_parents: false })).data, []);
    assert.deepEqual((await kit.rest.repos.getRepoRulesets({ owner: org.login, repo: spared.name })).data, []);

    const one = await kit.rest.repos.getRepoRuleset({ owner: org.login, repo: covered.name, ruleset_id: rsId });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/rulesets/{ruleset_id}', 200, one.data);
    assert.equal(one.data.source_type, 'Organization');
    assert.deepEqual(one.data.conditions, { ref_name: { include: ['~DEFAULT_BRANCH'], exclude: [] }, repository_name: { include: ['*'], exclude: ['sandbox-*'], protected: false } });
    await failsWith(kit.rest.repos.getRepoRuleset({ owner: org.login, repo: covered.name, ruleset_id: rsId, includes_parents: false }), 404);
    await failsWith(kit.rest.repos.getRepoRuleset({ owner: org.login, repo: spared.name, ruleset_id: rsId }), 404);

    const rules = await kit.rest.repos.getBranchRules({ owner: org.login, repo: covered.name, branch: 'main' });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/rules/branches/{branch}', 200, rules.data);
    assert.deepEqual(rules.data, [{ type: 'non_fast_forward', ruleset_source_type: 'Organization', ruleset_source: org.login, ruleset_id: rsId }]);
    assert.deepEqual((await kit.rest.repos.getBranchRules({ owner: org.login, repo: spared.name, branch: 'main' })).data, []);
  });

  test('…/branches calls a branch the organization ruleset covers protected; the excluded repository\'s main is not', async () => {
    const kit = t.octokit(member.token);
    const listed = await kit.rest.repos.listBranches({ owner: org.login, repo: covered.name });
    assert.deepEqual(listed.data.map((b) => [b.name, b.protected]), [['main', true]]);
    assert.equal((await kit.rest.repos.getBranch({ owner: org.login, repo: covered.name, branch: 'main' })).data.protected, true);
    assert.equal((await kit.rest.repos.getBranch({ owner: org.login, repo: spared.name, branch: 'main' })).data.protected, false);
    assert.deepEqual((await kit.rest.repos.listBranches({ owner: org.login, repo: spared.name, protected: true })).data, []);
  });

  test('git push --force to main of a covered repository is refused with GH013, even for the owner; the excluded repository takes it', async () => {
    const before = (await gitOk(['rev-parse', 'HEAD'], { cwd: ownerClone.dir })).trim();
    await gitOk(['reset', '-q', '--hard', 'HEAD~1'], { cwd: ownerClone.dir });
    await commitFiles(ownerClone, { 'b.txt': 'b\n' }, 'Rewrite');
    const r = await git(['push', '--force', 'origin', 'main'], { cwd: ownerClone.dir });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /remote: error: GH013: Repository rule violations found for refs\/heads\/main\./);
    assert.match(r.stderr, /remote: - Cannot force-push to this branch/);
    const ref = await t.octokit(org.owner.token).rest.git.getRef({ owner: org.login, repo: covered.name, ref: 'heads/main' });
    assert.equal(ref.data.object.sha, before);

    // The refs API asks the same lookup: 422 with the ruleset's message.
    const rewritten = (await gitOk(['rev-parse', 'HEAD'], { cwd: ownerClone.dir })).trim();
    await gitOk(['push', '-q', 'origin', 'HEAD:refs/heads/side'], { cwd: ownerClone.dir });
    const e = await failsWith(t.octokit(org.owner.token).rest.git.updateRef({ owner: org.login, repo: covered.name, ref: 'heads/main', sha: rewritten, force: true }), 422);
    assert.equal(e.message, 'Repository rule violations found\n\nCannot force-push to this branch\n\n');

    await gitOk(['reset', '-q', '--hard', 'HEAD~1'], { cwd: sparedClone.dir });
    await commitFiles(sparedClone, { 'b.txt': 'b\n' }, 'Rewrite');
    const ok = await git(['push', '--force', 'origin', 'main'], { cwd: sparedClone.dir });
    assert.equal(ok.code, 0, ok.stderr);
  });

  test('evaluate binds nobody; an OrganizationAdmin bypass lets owners force-push while a member stays bound', async () => {
    const kit = t.octokit(org.owner.token);
    await kit.rest.repos.addCollaborator({ owner: org.login, repo: covered.name, username: member.login, permission: 'push' });
    await kit.rest.repos.updateOrgRuleset({ org: org.login, ruleset_id: rsId, enforcement: 'evaluate' });
    const r1 = await git(['push', '--force', 'origin', 'main'], { cwd: ownerClone.dir });
    assert.equal(r1.code, 0, r1.stderr);

    await kit.rest.repos.updateOrgRuleset({ org: org.login, ruleset_id: rsId, enforcement: 'active', bypass_actors: [{ actor_type: 'OrganizationAdmin', bypass_mode: 'always' }] });
    await gitOk(['reset', '-q', '--hard', 'HEAD~1'], { cwd: ownerClone.dir });
    await commitFiles(ownerClone, { 'c.txt': 'c\n' }, 'Owner rewrite');
    const r2 = await git(['push', '--force', 'origin', 'main'], { cwd: ownerClone.dir });
    assert.equal(r2.code, 0, r2.stderr);

    const memberClone = await cloneAs(t, org.login, covered.name, member);
    await gitOk(['reset', '-q', '--hard', 'HEAD~1'], { cwd: memberClone.dir });
    await commitFiles(memberClone, { 'd.txt': 'd\n' }, 'Member rewrite');
    const r3 = await git(['push', '--force', 'origin', 'main'], { cwd: memberClone.dir });
    assert.notEqual(r3.code, 0);
    assert.match(r3.stderr, /GH013: Repository rule violations found for refs\/heads\/main\./);
  });

  test('an organization push ruleset (no ref conditions) judges the files every push to its repositories brings', async () => {
    const kit = t.octokit(org.owner.token);
    const push = await kit.rest.repos.createOrgRuleset({
      org: org.login, name: 'no binaries', enforcement: 'active', target: 'push',
      conditions: { repository_name: { include: ['~ALL'], exclude: ['sandbox-*'] } },
      rules: [{ type: 'file_extension_restriction', parameters: { restricted_file_extensions: ['.exe'] } }],
    });
    assert.equal(push.status, 201);
    // Its conditions name every ref, as a push ruleset covers them.
    assert.deepEqual(push.data.conditions, { ref_name: { include: ['~ALL'], exclude: [] }, repository_name: { include: ['~ALL'], exclude: ['sandbox-*'], protected: false } });
    await gitOk(['fetch', '-q', 'origin'], { cwd: ownerClone.dir });
    await gitOk(['reset', '-q', '--hard', 'origin/main'], { cwd: ownerClone.dir });
    await commitFiles(ownerClone, { 'tool.exe': 'MZ\n' }, 'Add a binary');
    const r = await git(['push', 'origin', 'HEAD:refs/heads/tools'], { cwd: ownerClone.dir });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /GH013: Repository rule violations found for refs\/heads\/tools\./);
    assert.match(r.stderr, /remote: - Cannot push files with restricted extensions: \.exe/);
    await commitFiles(sparedClone, { 'tool.exe': 'MZ\n' }, 'Add a binary');
    const ok = await git(['push', 'origin', 'HEAD:refs/heads/tools'], { cwd: sparedClone.dir });
    assert.equal(ok.code, 0, ok.stderr);
    await kit.rest.repos.deleteOrgRuleset({ org: org.login, ruleset_id: push.data.id });
  });
});
