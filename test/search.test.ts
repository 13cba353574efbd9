// Search through Octokit's search.*: issues and pull requests, repositories, users,
// labels and topics, with qualifiers, visibility across users and token scopes, the
// spec's limits and errors, Link, 304, text matches and the search rate limit.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { createToken, createUser, type CreatedUser } from './factories/accounts.ts';
import { createOrgWithOwner, type CreatedOrg } from './factories/orgs.ts';
import { addCollaborator, createIssue, createRepo, type CreatedRepo } from './factories/issues.ts';
import { failsWith } from './helpers/failures.ts';
import { checkout, commitFiles, push, repoWithFeature } from './factories/pulls.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { inTransaction } from '../src/context.ts';
import { userActor } from '../src/domain/actor.ts';
import { reposByIds } from '../src/modules/repos/repos.service.ts';
import { createIssueRecord } from '../src/modules/issues/issues.service.ts';

const numbers = (items: { number: number }[]) => items.map((i) => i.number).sort((a, b) => a - b);
const names = (items: { name: string }[]) => items.map((i) => i.name).sort();
const DAY = 86_400_000;

/**
 * Upstream's OpenAPI types an issue search item's body as a string, yet upstream (and
 * the issue list endpoints) send null for an issue without one: compared as ''.
 */
function withBodies<T extends { items: { body?: string | null }[] }>(data: T): T {
  return { ...data, items: data.items.map((i) => ({ ...i, body: i.body ?? '' })) };
}

describe('search', () => {
  let t: TestServer;
  let clock: TestClock;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let carol: CreatedUser;
  let org: CreatedOrg;
  let pub: CreatedRepo;
  let priv: CreatedRepo;
  let orgRepo: CreatedRepo;
  const tag = `zq${Date.now().toString(36)}`;

  before(async () => {
    clock = new TestClock();
    t = await startTestServer({ clock, env: { WHARF_RATE_LIMIT_SEARCH_AUTHENTICATED: '100000', WHARF_RATE_LIMIT_SEARCH_UNAUTHENTICATED: '100000' } });
    alice = await createUser(t);
    bob = await createUser(t);
    carol = await createUser(t);
    org = await createOrgWithOwner(t);
    pub = await createRepo(t, alice, { name: `${tag}-harbor` });
    priv = await createRepo(t, alice, { name: `${tag}-vault`, private: true });
    orgRepo = await createRepo(t, org.owner, { name: `${tag}-fleet`, org: org.login });
    await addCollaborator(t, alice.token, pub, bob);
  });
  after(() => t.close());

  test('issues: keywords, phrases, qualifiers, sorts, items as the list endpoints show them', async () => {
    const kit = t.octokit(alice.token);
    await kit.rest.issues.createMilestone({ owner: pub.owner, repo: pub.repo, title: 'Version One' });
    const i1 = await createIssue(t, alice.token, pub, { title: `${tag} anchor chain broken`, body: 'the windlass jams', labels: ['bug', 'needs triage'], milestone: 1, assignees: [bob.login] });
    clock.advance(DAY);
    const i2 = await createIssue(t, bob.token, pub, { title: `${tag} sail torn`, body: `ping @${carol.login} about the anchor` });
    clock.advance(DAY);
    const i3 = await createIssue(t, alice.token, pub, { title: `${tag} hull paint` });
    await kit.rest.issues.createComment({ owner: pub.owner, repo: pub.repo, issue_number: i3.number, body: 'barnacles everywhere' });
    await t.octokit(carol.token).rest.issues.createComment({ owner: pub.owner, repo: pub.repo, issue_number: i3.number, body: 'and rust' });
    clock.advance(DAY);
    await kit.rest.issues.update({ owner: pub.owner, repo: pub.repo, issue_number: i2.number, state: 'closed' });
    const [repo] = await reposByIds(t.server.ctx, [pub.id]);
    const actor = userActor({ id: bob.id, login: bob.login, siteAdmin: false }, 'token', 0, ['repo'], '');
    const pr = await inTransaction(t.server.ctx, (tx) => createIssueRecord(tx, repo!, actor, { title: `${tag} anchor pull` }, { isPullRequest: true }));

    const search = async (q: string, extra: Record<string, string | number> = {}) =>
      (await kit.rest.search.issuesAndPullRequests({ q: `${q} repo:${pub.owner}/${pub.repo}`, ...extra } as never)).data;

    const all = await search(tag);
    assertMatchesOpenApi('GET', '/search/issues', 200, withBodies(all));
    assert.equal((all as { search_type?: string }).search_type, 'lexical');
    assert.equal(all.total_count, 4);
    assert.equal(all.incomplete_results, false);
    assert.deepEqual(numbers(all.items), [i1.number, i2.number, i3.number, pr.number]);
    // The tag once in each title (counted double), in no body.
    assert.ok(all.items.every((i) => i.score === 2));
    // The item is the issue record the list endpoint presents, plus score.
    const listed = (await kit.rest.issues.get({ owner: pub.owner, repo: pub.repo, issue_number: i1.number })).data;
    const found = all.items.find((i) => i.number === i1.number)!;
    const { score, ...record } = found;
    assert.equal(score, 2);
    assert.deepEqual(record, listed);
    assert.ok(all.items.find((i) => i.number === pr.number)!.pull_request);

    assert.deepEqual(numbers((await search(`${tag} anchor`)).items), [i1.number, i2.number, pr.number], 'title or body');
    // Without a sort, best match first: a word in the title counts double; ties newest first.
    const ranked = (await kit.rest.search.issuesAndPullRequests({ q: `anchor repo:${pub.owner}/${pub.repo}` })).data.items;
    assert.deepEqual(ranked.map((i) => [i.number, i.score]), [[pr.number, 2], [i1.number, 2], [i2.number, 1]]);
    assert.deepEqual(numbers((await search(`"anchor chain"`)).items), [i1.number], 'a quoted phrase');
    assert.deepEqual(numbers((await search(`${tag} anchor in:title`)).items), [i1.number, pr.number]);
    assert.deepEqual(numbers((await search(`anchor in:body`)).items), [i2.number]);
    assert.deepEqual(numbers((await search(`barnacles in:comments`)).items), [i3.number]);
    assert.deepEqual(numbers((await search(`barnacles`)).items), [], 'comments only with in:comments');
    assert.deepEqual(numbers((await search(`${tag} NOT anchor`)).items), [i3.number]);
    assert.deepEqual(numbers((await search(`${tag} -anchor`)).items), [i3.number]);
    assert.deepEqual(numbers((await search(`sail OR hull`)).items), [i2.number, i3.number]);
    assert.deepEqual(numbers((await search(`${tag} is:issue`)).items), [i1.number, i2.number, i3.number]);
    assert.deepEqual(numbers((await search(`${tag} is:pr`)).items), [pr.number]);
    assert.deepEqual(numbers((await search(`${tag} type:pr`)).items), [pr.number]);
    assert.deepEqual(numbers((await search(`${tag} is:closed`)).items), [i2.number]);
    assert.deepEqual(numbers((await search(`${tag} state:open is:issue`)).items), [i1.number, i3.number]);
    assert.deepEqual(numbers((await search(`${tag} author:${bob.login}`)).items), [i2.number, pr.number]);
    assert.deepEqual(numbers((await search(`${tag} assignee:${bob.login}`)).items), [i1.number]);
    assert.deepEqual(numbers((await search(`${tag} no:assignee`)).items), [i2.number, i3.number, pr.number]);
    assert.deepEqual(numbers((await search(`${tag} mentions:${carol.login}`)).items), [i2.number]);
    assert.deepEqual(numbers((await search(`${tag} commenter:${carol.login}`)).items), [i3.number]);
    assert.deepEqual(numbers((await search(`${tag} involves:${carol.login}`)).items), [i2.number, i3.number]);
    assert.deepEqual(numbers((await search(`${tag} involves:${bob.login}`)).items), [i1.number, i2.number, pr.number]);
    assert.deepEqual(numbers((await search(`${tag} label:bug`)).items), [i1.number]);
    assert.deepEqual(numbers((await search(`${tag} label:bug label:"needs triage"`)).items), [i1.number]);
    assert.deepEqual(numbers((await search(`${tag} -label:bug`)).items), [i2.number, i3.number, pr.number]);
    assert.deepEqual(numbers((await search(`${tag} no:label`)).items), [i2.number, i3.number, pr.number]);
    assert.deepEqual(numbers((await search(`${tag} milestone:"Version One"`)).items), [i1.number]);
    assert.deepEqual(numbers((await search(`${tag} no:milestone`)).items), [i2.number, i3.number, pr.number]);
    assert.deepEqual(numbers((await search(`${tag} comments:>=2`)).items), [i3.number]);
    assert.deepEqual(numbers((await search(`${tag} comments:0`)).items), [i1.number, i2.number, pr.number]);
    assert.deepEqual(numbers((await search(`${tag} comments:1..5`)).items), [i3.number]);
    assert.deepEqual(numbers((await search(`${tag} created:2026-01-01`)).items), [i1.number]);
    assert.deepEqual(numbers((await search(`${tag} created:>2026-01-01`)).items), [i2.number, i3.number, pr.number]);
    assert.deepEqual(numbers((await search(`${tag} created:<=2026-01-02`)).items), [i1.number, i2.number]);
    assert.deepEqual(numbers((await search(`${tag} created:2026-01-02..2026-01-03`)).items), [i2.number, i3.number]);
    assert.deepEqual(numbers((await search(`${tag} created:<2026-01-02`)).items), [i1.number]);
    assert.deepEqual(numbers((await search(`${tag} closed:>=2026-01-04`)).items), [i2.number]);
    assert.deepEqual(numbers((await search(`${tag} updated:>=2026-01-04T00:00:00Z`)).items), [i2.number, pr.number]);

    const byComments = await search(tag, { sort: 'comments', order: 'desc' });
    assert.equal(byComments.items[0]!.number, i3.number);
    const created = await search(tag, { sort: 'created', order: 'asc' });
    assert.deepEqual(created.items.map((i) => i.number), [i1.number, i2.number, i3.number, pr.number]);

    // user: and org: look in that account's repositories.
    const viaUser = await kit.rest.search.issuesAndPullRequests({ q: `${tag} user:${alice.login} is:issue` });
    assert.deepEqual(numbers(viaUser.data.items), [i1.number, i2.number, i3.number]);
  });

  test('issues: only where the caller may read, and only with the repo scope for private ones', async () => {
    const secret = await createIssue(t, alice.token, priv, { title: `${tag} kraken secret` });
    await createIssue(t, org.owner.token, orgRepo, { title: `${tag} kraken fleet` });
    const q = `${tag} kraken`;
    const find = async (token?: string) => numbers((await t.octokit(token).rest.search.issuesAndPullRequests({ q })).data.items);
    assert.equal((await find(alice.token)).length, 2, 'the owner sees both');
    assert.equal((await find(carol.token)).length, 1, 'another user sees the public one');
    assert.equal((await find()).length, 1, 'anonymous sees the public one');
    const noRepoScope = await createToken(t, alice.login, ['user']);
    assert.equal((await find(noRepoScope)).length, 1, 'without repo scope the private one is hidden');
    const withRepo = await t.octokit(alice.token).rest.search.issuesAndPullRequests({ q: `kraken repo:${priv.owner}/${priv.repo}` });
    assert.deepEqual(numbers(withRepo.data.items), [secret.number]);
    // repo: naming a repository the caller may not read is a 422 naming it, as upstream.
    for (const token of [carol.token, noRepoScope, undefined]) {
      const body = await failsWith(t.octokit(token).rest.search.issuesAndPullRequests({ q: `kraken repo:${priv.owner}/${priv.repo}` }), 422);
      assert.equal(body.message, 'Validation Failed');
      assert.equal(body.errors?.[0]?.resource, 'Search');
      assert.equal(body.errors?.[0]?.field, 'q');
      assert.equal(body.errors?.[0]?.code, 'invalid');
      assert.match(body.errors?.[0]?.message ?? '', /cannot be searched/);
      assert.equal((body.errors?.[0] as { value?: string }).value, `${priv.owner}/${priv.repo}`);
    }
    const missingUser = await failsWith(t.octokit(alice.token).rest.search.issuesAndPullRequests({ q: 'x user:no-such-user-zz' }), 422);
    assert.equal((missingUser.errors?.[0] as { value?: string }).value, 'no-such-user-zz');
    await failsWith(t.octokit(alice.token).rest.search.issuesAndPullRequests({ q: `x org:${alice.login}` }), 422);
    const inOrg = await t.octokit(carol.token).rest.search.issuesAndPullRequests({ q: `kraken org:${org.login}` });
    assert.equal(inOrg.data.total_count, 1);
  });

  test('limits: query length, operators, sort, order, the 1,000-result cap; Link; 304', async () => {
    const kit = t.octokit(alice.token);
    const tooLong = await failsWith(kit.rest.search.repos({ q: 'a'.repeat(257) }), 422);
    assert.equal(tooLong.message, 'Validation Failed');
    // Qualifiers and operators do not count towards the 256 characters.
    await kit.rest.search.repos({ q: `${'a'.repeat(250)} user:${alice.login} language:go` });
    const ops = await failsWith(kit.rest.search.issuesAndPullRequests({ q: 'a OR b OR c OR d OR e OR f OR g' }), 422);
    assert.equal(ops.message, 'Validation Failed');
    await kit.rest.search.issuesAndPullRequests({ q: 'a OR b OR c OR d OR e OR f' });
    await failsWith(kit.rest.search.issuesAndPullRequests({ q: '' }), 422);
    await failsWith(kit.rest.search.issuesAndPullRequests({ q: 'x', sort: 'stars' } as never), 422);
    await failsWith(kit.rest.search.repos({ q: 'x', order: 'up' } as never), 422);
    await failsWith(kit.rest.search.users({ q: 'x created:yesterday' }), 422);
    await failsWith(kit.rest.search.repos({ q: 'x stars:many' }), 422);
    const past = await failsWith(kit.rest.search.repos({ q: 'x', per_page: 100, page: 11 }), 422);
    assert.match(past.message, /first 1000 search results/);
    await kit.rest.search.repos({ q: 'x', per_page: 100, page: 10 });
    const noQ = await t.request('/search/issues', { token: alice.token });
    assert.equal(noQ.status, 422);

    // Link pages through the results; a conditional request answers 304.
    for (let i = 0; i < 3; i++) await createIssue(t, alice.token, pub, { title: `${tag} link page ${i}` });
    const first = await kit.rest.search.issuesAndPullRequests({ q: `${tag} "link page"`, per_page: 2 });
    assert.equal(first.data.total_count, 3);
    assert.equal(first.data.items.length, 2);
    assert.match(first.headers.link ?? '', /page=2.*rel="next"/);
    assert.match(first.headers.link ?? '', /rel="last"/);
    const second = await kit.rest.search.issuesAndPullRequests({ q: `${tag} "link page"`, per_page: 2, page: 2 });
    assert.equal(second.data.items.length, 1);
    assert.match(second.headers.link ?? '', /rel="prev"/);
    const url = `/search/issues?q=${encodeURIComponent(`${tag} "link page"`)}`;
    const r1 = await t.request(url, { token: alice.token });
    const etag = r1.headers.get('etag')!;
    assert.ok(etag);
    const r2 = await t.request(url, { token: alice.token, headers: { 'if-none-match': etag } });
    assert.equal(r2.status, 304);
  });

  test('repositories: qualifiers, visibility, sorts', async () => {
    const kit = t.octokit(alice.token);
    await kit.rest.repos.update({ owner: pub.owner, repo: pub.repo, description: `Mooring lines and ${tag} buoys` });
    await kit.rest.repos.replaceAllTopics({ owner: pub.owner, repo: pub.repo, names: ['sailing', 'ropes'] });
    await kit.rest.repos.replaceAllTopics({ owner: priv.owner, repo: priv.repo, names: ['sailing'] });
    await t.octokit(bob.token).rest.activity.starRepoForAuthenticatedUser({ owner: pub.owner, repo: pub.repo });
    await t.octokit(carol.token).rest.activity.starRepoForAuthenticatedUser({ owner: pub.owner, repo: pub.repo });
    const fork = await t.octokit(carol.token).rest.repos.createFork({ owner: pub.owner, repo: pub.repo });

    const find = async (q: string, token = alice.token, extra: Record<string, string> = {}) =>
      names((await t.octokit(token).rest.search.repos({ q, ...extra } as never)).data.items);
    assert.deepEqual(await find(tag), [orgRepo.repo, pub.repo, priv.repo].sort());
    assert.deepEqual(await find(tag, carol.token), [orgRepo.repo, pub.repo].sort(), 'private ones only for those who may read them');
    const noRepoScope = await createToken(t, alice.login, ['user']);
    assert.deepEqual(await find(tag, noRepoScope), [orgRepo.repo, pub.repo].sort());
    assert.deepEqual(await find(`${tag} is:private`), [priv.repo]);
    assert.deepEqual(await find(`${tag} is:public`), [orgRepo.repo, pub.repo].sort());
    assert.deepEqual(await find(`buoys in:description`), [pub.repo]);
    assert.deepEqual(await find(`buoys in:name`), []);
    assert.deepEqual(await find(`buoys in:readme`), [], 'READMEs are not indexed yet');
    assert.deepEqual(await find(`${tag} in:name user:${alice.login}`), [pub.repo, priv.repo].sort());
    assert.deepEqual(await find(`${tag} org:${org.login}`), [orgRepo.repo]);
    assert.deepEqual(await find(`topic:sailing`), [pub.repo, priv.repo].sort());
    assert.deepEqual(await find(`topic:sailing topic:ropes`), [pub.repo]);
    assert.deepEqual(await find(`${tag} stars:>=2`), [pub.repo]);
    assert.deepEqual(await find(`${tag} stars:0`), [orgRepo.repo, priv.repo].sort());
    assert.deepEqual(await find(`${tag} forks:1`), [pub.repo]);
    assert.deepEqual(await find(`${tag} fork:only`), [fork.data.name]);
    assert.deepEqual((await find(`${tag} fork:true`)).length, 4);
    assert.deepEqual(await find(`${tag} archived:true`), []);
    assert.deepEqual(await find(`${tag} NOT vault`), [orgRepo.repo, pub.repo].sort());
    assert.deepEqual(await find(`${tag} created:>=2026-01-01 size:>=0`), [orgRepo.repo, pub.repo, priv.repo].sort());
    assert.deepEqual(await find(`${tag} pushed:<2000-01-01`), []);
    assert.deepEqual(await find(`${tag} language:cobol`), []);
    const byStars = await t.octokit(alice.token).rest.search.repos({ q: tag, sort: 'stars', order: 'desc' });
    assertMatchesOpenApi('GET', '/search/repositories', 200, byStars.data);
    assert.equal(byStars.data.items[0]!.name, pub.repo);
    const item = byStars.data.items[0]!;
    const listed = (await kit.rest.repos.listForUser({ username: alice.login })).data.find((r) => r.id === pub.id)!;
    const { score, ...record } = item;
    // The tag in the name (counted double) and in the description.
    assert.equal(score, 3);
    assert.deepEqual(record, listed, 'the repository record the list endpoints present, plus score');
    await failsWith(kit.rest.search.repos({ q: `x user:nobody-${tag}` }), 422);
    await failsWith(t.octokit(carol.token).rest.search.repos({ q: `x repo:${priv.owner}/${priv.repo}` }), 422);
    assert.deepEqual(await find(`${tag} repo:${pub.owner}/${pub.repo}`), [pub.repo]);
  });

  test('users: type, in:, repos:, followers:, location:, created:', async () => {
    const kit = t.octokit(alice.token);
    await kit.rest.users.updateAuthenticated({ name: `Alice ${tag}`, location: 'Port Royal' });
    const find = async (q: string) => (await t.octokit(bob.token).rest.search.users({ q })).data;
    const byName = await find(`${tag} in:name`);
    assertMatchesOpenApi('GET', '/search/users', 200, byName);
    assert.deepEqual(byName.items.map((u) => u.login), [alice.login]);
    assert.equal(byName.items[0]!.score, 1);
    assert.equal(byName.items[0]!.url, `${t.baseUrl}/users/${alice.login}`);
    // The item is the public profile (less twitter_username), with its counts: alice's one public repository.
    const { score: _score, ...item } = byName.items[0]!;
    const { twitter_username: _tw, notification_email: _ne, ...profile } = (await kit.rest.users.getByUsername({ username: alice.login })).data as Record<string, unknown>;
    assert.deepEqual(item, { ...profile, suspended_at: null });
    assert.deepEqual([item.name, item.location, item.public_repos, item.followers], [`Alice ${tag}`, 'Port Royal', 1, 0]);
    // When an account was suspended: shown to site admins only.
    const dropped = await createUser(t);
    await t.octokit(ADMIN_TOKEN).request('PUT /users/{username}/suspended', { username: dropped.login });
    const suspendedAt = async (token: string) => (await t.octokit(token).rest.search.users({ q: `${dropped.login} in:login` })).data.items[0]!.suspended_at;
    assert.match(String(await suspendedAt(ADMIN_TOKEN)), /^\d{4}-\d\d-\d\dT/);
    assert.equal(await suspendedAt(bob.token), null);
    assert.deepEqual((await find(`${alice.login} in:login`)).items.map((u) => u.login), [alice.login]);
    assert.deepEqual((await find(`${tag} in:login`)).items, []);
    assert.deepEqual((await find(`${tag} location:"port royal"`)).items.map((u) => u.login), [alice.login]);
    assert.deepEqual((await find(`${tag} location:tortuga`)).items, []);
    assert.deepEqual((await find(`${alice.login} repos:1`)).items.map((u) => u.login), [alice.login]);
    assert.deepEqual((await find(`${alice.login} repos:>=2`)).items, []);
    assert.deepEqual((await find(`${alice.login} followers:0`)).items.map((u) => u.login), [alice.login]);
    assert.deepEqual((await find(`${alice.login} followers:>5`)).items, []);
    assert.deepEqual((await find(`${alice.login} type:org`)).items, []);
    assert.deepEqual((await find(`${org.login} type:org`)).items.map((u) => u.login), [org.login]);
    assert.deepEqual((await find(`${alice.login} created:>=2026-01-01`)).items.map((u) => u.login), [alice.login]);
    assert.deepEqual((await find(`${alice.login} created:<2000-01-01`)).items, []);
    await failsWith(t.octokit(bob.token).rest.search.users({ q: 'x type:robot' }), 422);
  });

  test('labels and topics', async () => {
    const kit = t.octokit(alice.token);
    await kit.rest.issues.createLabel({ owner: pub.owner, repo: pub.repo, name: 'rigging', description: 'ropes and masts' });
    const found = await t.octokit(carol.token).rest.search.labels({ repository_id: pub.id, q: 'rigging' });
    assert.equal(found.data.total_count, 1);
    assertMatchesOpenApi('GET', '/search/labels', 200, found.data);
    const label = (await kit.rest.issues.getLabel({ owner: pub.owner, repo: pub.repo, name: 'rigging' })).data;
    assert.deepEqual(found.data.items[0], { ...label, score: 2 });
    assert.equal((await kit.rest.search.labels({ repository_id: pub.id, q: 'masts' })).data.total_count, 1);
    assert.equal((await kit.rest.search.labels({ repository_id: pub.id, q: 'bug OR rigging' })).data.total_count, 2);
    await failsWith(t.octokit(carol.token).rest.search.labels({ repository_id: priv.id, q: 'bug' }), 404);
    await failsWith(t.octokit().rest.search.labels({ q: 'bug' } as never), 422);

    const topics = async (token?: string) => (await t.octokit(token).rest.search.topics({ q: 'sailing' })).data;
    const mine = await topics(alice.token);
    assertMatchesOpenApi('GET', '/search/topics', 200, mine);
    assert.equal(mine.items[0]!.name, 'sailing');
    assert.equal(mine.items[0]!.score, 1);
    // No curated topic records: no logo, related topics or aliases.
    assert.deepEqual([mine.items[0]!.logo_url, mine.items[0]!.related, mine.items[0]!.aliases], [null, null, null]);
    const theirs = await topics(carol.token);
    assert.ok((mine.items[0] as { repository_count?: number }).repository_count! > (theirs.items[0] as { repository_count?: number }).repository_count!,
      'private repositories count only for those who may read them');
  });

  test('text matches: indices point into the fragment', async () => {
    const issue = await createIssue(t, alice.token, pub, { title: `${tag} Lighthouse keeper`, body: 'The lighthouse lamp; LIGHTHOUSE fog.' });
    const res = await t.octokit(alice.token).request('GET /search/issues', {
      q: `lighthouse repo:${pub.owner}/${pub.repo}`, headers: { accept: 'application/vnd.github.text-match+json' },
    });
    assertMatchesOpenApi('GET', '/search/issues', 200, withBodies(res.data));
    const item = res.data.items.find((i: { number: number }) => i.number === issue.number) as { text_matches: { object_url: string; object_type: string; property: string; fragment: string; matches: { text: string; indices: number[] }[] }[] };
    assert.deepEqual(item.text_matches.map((m) => m.property).sort(), ['body', 'title']);
    for (const m of item.text_matches) {
      assert.equal(m.object_url, `${t.baseUrl}/repos/${pub.owner}/${pub.repo}/issues/${issue.number}`);
      assert.equal(m.object_type, 'Issue');
      for (const x of m.matches) assert.equal(m.fragment.slice(x.indices[0], x.indices[1]), x.text);
    }
    const body = item.text_matches.find((m) => m.property === 'body')!;
    assert.deepEqual(body.matches.map((x) => x.text), ['lighthouse', 'LIGHTHOUSE']);
    assert.deepEqual(body.matches[0]!.indices, [4, 14]);
    // The vnd.service name works alike; without the media type there are none.
    const svc = await t.request(`/search/repositories?q=buoys`, { token: alice.token, headers: { accept: 'application/vnd.service.v3.text-match+json' } });
    const repoItem = (await svc.json() as { items: { text_matches: { property: string; fragment: string; matches: { text: string; indices: number[] }[] }[] }[] }).items[0]!;
    const d = repoItem.text_matches.find((m) => m.property === 'description')!;
    assert.equal(d.fragment.slice(d.matches[0]!.indices[0], d.matches[0]!.indices[1]), 'buoys');
    const plain = await t.octokit(alice.token).rest.search.repos({ q: 'buoys' });
    assert.equal((plain.data.items[0] as { text_matches?: unknown }).text_matches, undefined);
  });

  test('GraphQL textMatches agree with REST text_matches for an issue search', async () => {
    const issue = await createIssue(t, alice.token, pub, { title: `${tag} Beacon tower`, body: 'A beacon on the BEACON hill.' });
    const q = `beacon repo:${pub.owner}/${pub.repo}`;
    const rest = await t.octokit(alice.token).request('GET /search/issues', { q, headers: { accept: 'application/vnd.service.v3.text-match+json' } });
    const item = rest.data.items.find((i: { number: number }) => i.number === issue.number) as { text_matches: { property: string; fragment: string; matches: { text: string; indices: number[] }[] }[] };
    const res = await t.request('/graphql', { method: 'POST', token: alice.token, json: {
      query: `query($q: String!) { search(query: $q, type: ISSUE, first: 10) { edges {
        node { ... on Issue { number } } textMatches { property fragment highlights { text beginIndice endIndice } } } } }`,
      variables: { q },
    } });
    type GqlMatch = { property: string; fragment: string; highlights: { text: string; beginIndice: number; endIndice: number }[] };
    const { data } = await res.json() as { data: { search: { edges: { node: { number?: number }; textMatches: GqlMatch[] }[] } } };
    const edge = data.search.edges.find((e) => e.node.number === issue.number)!;
    assert.deepEqual(edge.textMatches, item.text_matches.map((m) => ({
      property: m.property, fragment: m.fragment,
      highlights: m.matches.map((x) => ({ text: x.text, beginIndice: x.indices[0], endIndice: x.indices[1] })),
    })));
    assert.deepEqual(edge.textMatches.map((m) => m.property), ['title', 'body']);
    assert.deepEqual(edge.textMatches[1]!.highlights.map((h) => h.text), ['beacon', 'BEACON']);
  });

  test('GraphQL search(type:) answers what REST does', async () => {
    const gql = async (query: string, type: string) => {
      const res = await t.request('/graphql', { method: 'POST', token: alice.token, json: {
        query: `query($q: String!, $type: SearchType!) { search(query: $q, type: $type, first: 50) { issueCount repositoryCount userCount nodes { __typename ... on Issue { number } ... on PullRequest { number } ... on Repository { name } ... on User { login } } } }`,
        variables: { q: query, type },
      } });
      return (await res.json() as { data: { search: { issueCount: number; repositoryCount: number; userCount: number; nodes: { number?: number; name?: string; login?: string }[] } } }).data.search;
    };
    const q = `${tag} label:bug repo:${pub.owner}/${pub.repo}`;
    const rest = await t.octokit(alice.token).rest.search.issuesAndPullRequests({ q });
    const g = await gql(q, 'ISSUE');
    assert.equal(g.issueCount, rest.data.total_count);
    assert.deepEqual(g.nodes.map((n) => n.number).sort(), numbers(rest.data.items));
    const repos = await gql(`${tag} is:private`, 'REPOSITORY');
    assert.equal(repos.repositoryCount, 1);
    assert.equal(repos.nodes[0]!.name, priv.repo);
    const bad = await t.request('/graphql', { method: 'POST', token: alice.token, json: {
      query: 'query($q: String!) { search(query: $q, type: ISSUE, first: 5) { issueCount } }', variables: { q: 'a OR b OR c OR d OR e OR f OR g' } } });
    assert.equal(bad.status, 200);
    const badBody = await bad.json() as { errors?: { message: string }[] };
    assert.ok(badBody.errors?.length, 'a query past the limits is an error, not a 500');
    const usersFound = await gql(`${tag} in:name`, 'USER');
    assert.equal(usersFound.userCount, 1);
    assert.equal(usersFound.nodes[0]!.login, alice.login);
  });

  test('the search rate limit: its own resource, 30 a minute authenticated, 10 anonymous', async () => {
    const t2 = await startTestServer();
    try {
      const user = await createUser(t2);
      const limits = (await t2.octokit(user.token).rest.rateLimit.get()).data;
      assert.equal(limits.resources.search.limit, 30);
      const anon = (await t2.octokit().rest.rateLimit.get()).data;
      assert.equal(anon.resources.search.limit, 10);
      const res = await t2.octokit(user.token).rest.search.users({ q: user.login });
      assert.equal(res.headers['x-ratelimit-resource'], 'search');
      assert.equal(res.headers['x-ratelimit-limit'], '30');
      for (let i = 0; i < 10; i++) await t2.octokit().rest.search.users({ q: 'x' });
      const over = await failsWith(t2.octokit().rest.search.users({ q: 'x' }), 403);
      assert.match(over.message, /rate limit/i);
      // Core requests still go through: the budgets are separate.
      await t2.octokit().rest.users.getByUsername({ username: user.login });
    } finally {
      await t2.close();
    }
  });

  test('issues: is:merged and is:unmerged tell pull requests apart by whether they were merged', async () => {
    const kit = t.octokit(alice.token);
    const name = `${tag}-slipway`;
    const { clone } = await repoWithFeature(t, alice, {}, name);
    await checkout(clone, 'other', true);
    await commitFiles(clone, { 'other.txt': 'other\n' }, 'Other work');
    await push(clone, 'other');
    const merged = (await kit.rest.pulls.create({ owner: alice.login, repo: name, title: `${tag} launch`, head: 'feature', base: 'main' })).data;
    await kit.rest.pulls.merge({ owner: alice.login, repo: name, pull_number: merged.number });
    const open = (await kit.rest.pulls.create({ owner: alice.login, repo: name, title: `${tag} refit`, head: 'other', base: 'main' })).data;
    await kit.rest.issues.create({ owner: alice.login, repo: name, title: `${tag} hull` });
    const found = async (q: string) => numbers((await kit.rest.search.issuesAndPullRequests({ q: `${q} repo:${alice.login}/${name}` })).data.items);
    assert.deepEqual(await found('is:merged'), [merged.number]);
    assert.deepEqual(await found('is:unmerged'), [open.number]);
    assert.deepEqual(await found('is:pr is:closed is:merged'), [merged.number]);
    assert.deepEqual(await found('is:unmerged is:closed'), []);
  });
});
