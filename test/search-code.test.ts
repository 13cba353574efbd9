// Commit search and code search over the search index: real repositories pushed with
// git, the index worker awaited (server.searchIndex.idle(), no sleeps), qualifiers,
// item shapes, text matches checked against the file text, visibility across users,
// and a push making new content findable and removed content unfindable.
import { after, before, describe, test } from 'node:test';
import { execFile } from 'node:child_process';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createToken, createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo, type CreatedRepo } from './factories/repos.ts';
import { cloneUrl, gitOk, tempDir } from './helpers/git.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { gql } from './helpers/graphql.ts';
import { sql } from 'kysely';
import { programArgs } from './helpers/programs.ts';

type Json = Record<string, any>;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The admin command line on the test server's data dir and database, as an operator runs it. */
function cli(t: TestServer, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(
    (e): e is [string, string] => e[1] !== undefined && !/^(DATABASE_URL|WHARF_|PORT$|HOST$|LOG_LEVEL$)/.test(e[0]),
  ));
  const env = {
    ...inherited, WHARF_DATA_DIR: t.dataDir, LOG_LEVEL: 'silent',
    ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}),
    ...(t.pgSchema ? { WHARF_DATABASE_SCHEMA: t.pgSchema } : {}),
  };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [...programArgs('cli/main.ts'), ...args], { cwd: ROOT, env }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') return reject(err);
      resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
    });
  });
}

describe('search over the index', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let pub: CreatedRepo;
  let priv: CreatedRepo;
  let work: string;
  const tag = `zk${Date.now().toString(36)}`;

  const idle = () => t.server.searchIndex.idle();

  async function commit(dir: string, files: Record<string, string | Buffer | null>, message: string, env: Record<string, string> = {}): Promise<string> {
    for (const [p, content] of Object.entries(files)) {
      const full = path.join(dir, p);
      if (content === null) fs.rmSync(full);
      else {
        fs.mkdirSync(path.dirname(full), { recursive: true });
        fs.writeFileSync(full, content);
      }
    }
    await gitOk(['add', '-A'], { cwd: dir });
    await gitOk(['commit', '-q', '-m', message], { cwd: dir, env });
    return (await gitOk(['rev-parse', 'HEAD'], { cwd: dir })).trim();
  }

  async function get(pathname: string, token?: string, accept?: string): Promise<{ status: number; body: Json; headers: Headers }> {
    const res = await t.request(pathname, { ...(token ? { token } : {}), ...(accept ? { headers: { accept } } : {}) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) as Json : {}, headers: res.headers };
  }

  const codeQ = (q: string, token = alice.token, accept?: string) => get(`/search/code?q=${encodeURIComponent(q)}`, token, accept);
  const commitQ = (q: string, token = alice.token, extra = '') => get(`/search/commits?q=${encodeURIComponent(q)}${extra}`, token);

  before(async () => {
    t = await startTestServer({ env: { WHARF_RATE_LIMIT_SEARCH_AUTHENTICATED: '100000', WHARF_RATE_LIMIT_SEARCH_UNAUTHENTICATED: '100000' } });
    alice = await createUser(t);
    bob = await createUser(t);
    pub = await createRepo(t, alice, { name: `${tag}-harbor` });
    priv = await createRepo(t, alice, { name: `${tag}-vault`, private: true });
    work = tempDir();
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, alice.login, pub.repo, alice.login, alice.token), work]);
    const asAlice = { GIT_AUTHOR_EMAIL: `${alice.login}@example.com`, GIT_AUTHOR_NAME: 'Alice Anchor' };
    await commit(work, {
      'src/anchor.ts': `export function ${tag}Windlass(): number {\n  return 42; // ${tag}Windlass turns\n}\n`,
      'docs/guide.md': `# Guide\nHow the ${tag}Windlass works.\n`,
      'node_modules/dep/index.js': `// ${tag}Windlass vendored\n`,
      'logo.bin': Buffer.from([0, 1, 2, 3, ...Buffer.from(`${tag}Windlass`)]),
      'big.txt': `${tag}Windlass `.repeat(Math.ceil((500 * 1024) / (tag.length + 9))),
    }, `Add the ${tag}Windlass`, { ...asAlice, GIT_AUTHOR_DATE: '2021-03-04T10:00:00Z' });
    await commit(work, { 'README.md': `${tag} harbor\n` }, `Describe the ${tag} harbor`, { GIT_AUTHOR_DATE: '2022-06-01T10:00:00Z' });
    await gitOk(['push', '-q', 'origin', 'HEAD'], { cwd: work });

    const secret = tempDir();
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, alice.login, priv.repo, alice.login, alice.token), secret]);
    await commit(secret, { 'vault.py': `${tag}Windlass = "secret"\n${tag}_line = 1\n` }, `Hide the ${tag}Windlass`);
    await gitOk(['push', '-q', 'origin', 'HEAD'], { cwd: secret });
    await idle();
  });
  after(() => t.close());

  test('code: keywords over the default branch; binaries, vendored and large files left out; item shape', async () => {
    const r = await codeQ(`${tag}Windlass repo:${pub.owner}/${pub.repo}`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('x-ratelimit-resource'), 'code_search');
    assertMatchesOpenApi('GET', '/search/code', 200, r.body);
    assert.deepEqual(r.body.items.map((i: Json) => i.path).sort(), ['docs/guide.md', 'src/anchor.ts']);
    assert.equal(r.body.total_count, 2);
    // Two hits in anchor.ts, one in the guide: anchor.ts ranks first.
    const [first, second] = r.body.items as Json[];
    assert.equal(first!.path, 'src/anchor.ts');
    assert.ok(first!.score > second!.score);
    assert.equal(first!.name, 'anchor.ts');
    assert.equal(first!.language, 'TypeScript');
    const { data: branch } = await t.octokit(alice.token).rest.repos.getBranch({ owner: pub.owner, repo: pub.repo, branch: 'main' });
    assert.ok(first!.url.endsWith(`/repos/${pub.owner}/${pub.repo}/contents/src/anchor.ts?ref=${branch.commit.sha}`), first!.url);
    const contents = await get(new URL(first!.url).pathname + new URL(first!.url).search, alice.token);
    assert.equal(contents.body.sha, first!.sha);
    const blob = await get(new URL(first!.git_url).pathname, alice.token);
    assert.equal(blob.body.sha, first!.sha);
    assert.equal(first!.repository.full_name, `${pub.owner}/${pub.repo}`);
    assert.ok(first!.html_url.endsWith(`/blob/${branch.commit.sha}/src/anchor.ts`));

    // Without a keyword: 422.
    assert.equal((await codeQ(`repo:${pub.owner}/${pub.repo}`)).status, 422);
  });

  test('code: text matches point into the fragment, which is the file text', async () => {
    const r = await codeQ(`${tag}windlass filename:anchor.ts`, alice.token, 'application/vnd.service.v3.text-match+json');
    assert.equal(r.status, 200);
    const [item] = r.body.items as Json[];
    const text = `export function ${tag}Windlass(): number {\n  return 42; // ${tag}Windlass turns\n}\n`;
    const content = (item!.text_matches as Json[]).find((m) => m.property === 'content')!;
    assert.equal(content.object_type, 'FileContent');
    assert.equal(content.object_url, item!.url);
    assert.equal(content.fragment, text);
    assert.equal(content.matches.length, 2);
    for (const m of content.matches as Json[]) {
      assert.equal(content.fragment.slice(m.indices[0], m.indices[1]), m.text);
      assert.equal(m.text.toLowerCase(), `${tag}windlass`);
    }
    // Without the media type: no text_matches.
    assert.equal((await codeQ(`${tag}windlass filename:anchor.ts`)).body.items[0].text_matches, undefined);
  });

  test('code: qualifiers language, extension, filename, path, size, in', async () => {
    const paths = async (q: string) => ((await codeQ(`${tag}Windlass user:${alice.login} ${q}`)).body.items as Json[]).map((i) => i.path).sort();
    assert.deepEqual(await paths('language:typescript'), ['src/anchor.ts']);
    assert.deepEqual(await paths('extension:md'), ['docs/guide.md']);
    assert.deepEqual(await paths('filename:guide.md'), ['docs/guide.md']);
    assert.deepEqual(await paths('path:src'), ['src/anchor.ts']);
    assert.deepEqual(await paths('path:/'), ['vault.py']);
    assert.deepEqual(await paths('size:<60'), ['docs/guide.md', 'vault.py']);
    assert.deepEqual(await paths('in:path'), []);
    assert.deepEqual(((await codeQ(`anchor in:path repo:${pub.owner}/${pub.repo}`)).body.items as Json[]).map((i) => i.path), ['src/anchor.ts']);
    assert.deepEqual(await paths('NOT return'), ['docs/guide.md', 'vault.py']);
    // LIKE's wildcards in a word are plain characters.
    assert.deepEqual(await paths(`${tag}_line`), ['vault.py']);
    assert.deepEqual(await paths(`${tag}Xline`), []);
    assert.deepEqual(await paths(`${tag}%line`), []);
  });

  test('code items: line_numbers name the runs of lines holding the keywords; last_modified_at when the index took the file in', async () => {
    const lines = async (q: string) => Object.fromEntries(((await codeQ(`${q} repo:${pub.owner}/${pub.repo}`)).body.items as Json[]).map((i) => [i.path, i.line_numbers]));
    // anchor.ts holds the word on lines 1 and 2, the guide on line 2 (README.md not at all).
    assert.deepEqual(await lines(`${tag}Windlass`), { 'src/anchor.ts': ['1..2'], 'docs/guide.md': ['2..2'] });
    assert.deepEqual(await lines(`${tag}Windlass return`), { 'src/anchor.ts': ['1..2'] });
    assert.deepEqual(await lines('export OR works'), { 'src/anchor.ts': ['1..1'], 'docs/guide.md': ['2..2'] });
    // Only paths searched: no lines.
    assert.deepEqual(await lines('anchor in:path'), { 'src/anchor.ts': [] });

    // A word and repository of this test's own (no `tag`: other tests count what holds it).
    const word = `keel${Date.now().toString(36)}`;
    const dock = await createRepo(t, alice, { name: `${word}-slip` });
    const dir = tempDir();
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, alice.login, dock.repo, alice.login, alice.token), dir]);
    await commit(dir, { 'a.txt': `${word} a\n`, 'b.txt': `${word} b\n` }, 'Two files');
    await gitOk(['push', '-q', 'origin', 'HEAD'], { cwd: dir });
    await idle();
    const times = async () => Object.fromEntries(((await codeQ(`${word} repo:${dock.owner}/${dock.repo}`)).body.items as Json[]).map((i) => [i.path, i.last_modified_at]));
    const first = await times();
    assert.match(first['a.txt'], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(first['a.txt'], first['b.txt'], 'read in by the same indexing');
    // Backdate a.txt's entry; a push changing b.txt alone leaves a.txt's time as the index has it.
    await t.server.ctx.db.updateTable('search_code').set({ indexed_at: '2020-01-02T03:04:05Z' }).where('repository_id', '=', dock.id).where('path', '=', 'a.txt').execute();
    await commit(dir, { 'b.txt': `${word} b, again\n` }, 'Change b');
    await gitOk(['push', '-q', 'origin', 'HEAD'], { cwd: dir });
    await idle();
    const second = await times();
    assert.equal(second['a.txt'], '2020-01-02T03:04:05Z');
    assert.ok(second['b.txt'] >= first['b.txt'], `${second['b.txt']} ≥ ${first['b.txt']}`);
  });

  test('commit items: verification is the commits API\'s', async () => {
    const r = await commitQ(`${tag} repo:${pub.owner}/${pub.repo}`);
    assert.equal(r.body.items.length, 2);
    for (const item of r.body.items as Json[]) {
      const { data } = await t.octokit(alice.token).rest.repos.getCommit({ owner: pub.owner, repo: pub.repo, ref: item.sha });
      assert.deepEqual(item.commit.verification, data.commit.verification);
    }
    assert.equal(r.body.items[0].commit.verification.reason, 'unsigned');
  });

  test('repositories: in:readme finds words in the README at the root of the default branch', async () => {
    const octokit = t.octokit(alice.token);
    const write = async (repo: CreatedRepo, file: string, content: string) => {
      const existing = await octokit.rest.repos.getContent({ owner: repo.owner, repo: repo.repo, path: file }).then((r) => (r.data as { sha: string }).sha, () => undefined);
      await octokit.rest.repos.createOrUpdateFileContents({
        owner: repo.owner, repo: repo.repo, path: file, message: `Write ${file}`, content: Buffer.from(content).toString('base64'), ...(existing ? { sha: existing } : {}),
      });
    };
    await write(pub, 'README.md', `${tag} harbor\n\nMoored at the ${tag}Quay.\n`);
    await write(priv, 'readme.rst', `The ${tag}Quay, privately.\n`);
    await write(pub, 'docs/README.md', `${tag}Slipway\n`);
    await idle();
    const repoQ = async (q: string, token = alice.token) => {
      const r = await get(`/search/repositories?q=${encodeURIComponent(q)}`, token);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return (r.body.items as Json[]).map((i) => i.name as string).sort();
    };
    // Not in a name or description: found only when in: names the README.
    assert.deepEqual(await repoQ(`${tag}quay`), []);
    assert.deepEqual(await repoQ(`${tag}quay in:readme`), [pub.repo, priv.repo].sort());
    assert.deepEqual(await repoQ(`${tag}quay in:name,readme`), [pub.repo, priv.repo].sort());
    assert.deepEqual(await repoQ(`${tag}quay in:readme`, bob.token), [pub.repo]);
    assert.deepEqual(await repoQ(`${tag}quay in:readme is:private`), [priv.repo]);
    assert.deepEqual(await repoQ(`${tag} in:readme NOT ${tag}quay`), []);
    // Only the root README counts, not other files or a README further down.
    assert.deepEqual(await repoQ(`${tag}windlass in:readme`), []);
    assert.deepEqual(await repoQ(`${tag}slipway in:readme`), []);
    // GraphQL's repository search reads the same.
    const found = await gql(t, alice.token)<{ search: { repositoryCount: number } }>(
      `query($q: String!) { search(query: $q, type: REPOSITORY, first: 5) { repositoryCount } }`, { q: `${tag}quay in:readme` });
    assert.equal(found.search.repositoryCount, 2);
    // The README changes: the index follows.
    await write(pub, 'README.md', `${tag} harbor\n`);
    await idle();
    assert.deepEqual(await repoQ(`${tag}quay in:readme`), [priv.repo]);
    await gitOk(['pull', '-q', '--ff-only', 'origin', 'main'], { cwd: work });
  });

  test('visibility: a private repository for its owner only; unreachable repo: is a 422; made private hides at once', async () => {
    const mine = await codeQ(`${tag}Windlass`);
    assert.deepEqual((mine.body.items as Json[]).map((i) => i.path).sort(), ['docs/guide.md', 'src/anchor.ts', 'vault.py']);
    const theirs = await codeQ(`${tag}Windlass`, bob.token);
    assert.deepEqual((theirs.body.items as Json[]).map((i) => i.path).sort(), ['docs/guide.md', 'src/anchor.ts']);
    assert.equal((await codeQ(`${tag}Windlass is:private`)).body.total_count, 1);
    // Her own private repository needs a token with the repo scope.
    const unscoped = await createToken(t, alice.login, ['user']);
    assert.deepEqual(((await codeQ(`${tag}Windlass`, unscoped)).body.items as Json[]).map((i) => i.path).sort(), ['docs/guide.md', 'src/anchor.ts']);
    assert.equal((await commitQ(`Hide ${tag}`, unscoped)).body.total_count, 0);
    const denied = await codeQ(`${tag}Windlass repo:${priv.owner}/${priv.repo}`, bob.token);
    assert.equal(denied.status, 422);
    assert.equal(denied.body.errors[0].value, `${priv.owner}/${priv.repo}`);
    assert.equal((await commitQ(`${tag} repo:${priv.owner}/${priv.repo}`, bob.token)).status, 422);
    assert.equal((await commitQ(`Hide ${tag}`, bob.token)).body.total_count, 0);
    assert.equal((await commitQ(`Hide ${tag}`)).body.total_count, 1);
    // GraphQL counts code for any search, by the same rule.
    const counted = async (token: string, query: string) =>
      (await gql(t, token)<{ search: { codeCount: number } }>(`query($q: String!) { search(query: $q, type: REPOSITORY, first: 1) { codeCount } }`, { q: query })).search.codeCount;
    assert.equal(await counted(alice.token, `${tag}Windlass`), 3);
    assert.equal(await counted(bob.token, `${tag}Windlass`), 2);
    // No keyword: no code search, none counted.
    assert.equal(await counted(bob.token, `user:${alice.login}`), 0);
    // Anonymous callers see public repositories only.
    assert.equal((await get(`/search/code?q=${tag}Windlass`)).body.total_count, 2);

    await t.octokit(alice.token).rest.repos.update({ owner: pub.owner, repo: pub.repo, private: true });
    assert.equal((await codeQ(`${tag}Windlass`, bob.token)).body.total_count, 0);
    assert.equal((await commitQ(`${tag}Windlass`, bob.token)).body.total_count, 0);
    await t.octokit(alice.token).rest.repos.update({ owner: pub.owner, repo: pub.repo, private: false });
    assert.equal((await codeQ(`${tag}Windlass`, bob.token)).body.total_count, 2);
    await idle();
  });

  test('commits: keywords in messages, qualifiers, sort, item shape, users matched by e-mail', async () => {
    const r = await commitQ(`${tag} repo:${pub.owner}/${pub.repo}`);
    assert.equal(r.status, 200);
    assertMatchesOpenApi('GET', '/search/commits', 200, r.body);
    assert.equal(r.body.total_count, 2);
    const windlass = (r.body.items as Json[]).find((i) => i.commit.message.startsWith('Add'))!;
    assert.equal(windlass.commit.author.name, 'Alice Anchor');
    assert.equal(windlass.commit.author.date, '2021-03-04T10:00:00Z');
    assert.equal(windlass.author.login, alice.login);
    assert.equal(windlass.committer, null);
    assert.equal(windlass.repository.full_name, `${pub.owner}/${pub.repo}`);
    assert.ok(windlass.html_url.endsWith(`/${pub.owner}/${pub.repo}/commit/${windlass.sha}`));
    assert.ok(windlass.score > 0);
    const { data: full } = await t.octokit(alice.token).rest.repos.getCommit({ owner: pub.owner, repo: pub.repo, ref: windlass.sha });
    assert.equal(windlass.commit.tree.sha, full.commit.tree.sha);
    assert.deepEqual(windlass.parents.map((p: Json) => p.sha), full.parents.map((p) => p.sha));

    const shas = async (q: string, extra = '') => ((await commitQ(`${tag} ${q} repo:${pub.owner}/${pub.repo}`, alice.token, extra)).body.items as Json[]).map((i) => i.sha);
    assert.deepEqual(await shas(`author:${alice.login}`), [windlass.sha]);
    assert.deepEqual(await shas('author-name:"alice anchor"'), [windlass.sha]);
    assert.deepEqual(await shas(`author-email:${alice.login}@example.com`), [windlass.sha]);
    assert.equal((await shas('committer-name:"Test Author"')).length, 2);
    assert.deepEqual(await shas('author-date:<2022-01-01'), [windlass.sha]);
    assert.deepEqual(await shas('author-date:2021-03-04'), [windlass.sha]);
    assert.deepEqual(await shas('author-date:2021-01-01..2021-12-31'), [windlass.sha]);
    assert.equal((await shas('author-date:>2021-03-04')).length, 1);
    assert.deepEqual(await shas(`hash:${windlass.sha.slice(0, 8)}`), [windlass.sha]);
    assert.deepEqual(await shas(`tree:${full.commit.tree.sha}`), [windlass.sha]);
    assert.deepEqual((await shas(`parent:${windlass.sha}`)).length, 1);
    assert.deepEqual(await shas('merge:true'), []);
    assert.equal((await shas('merge:false')).length, 2);
    const asc = await shas('', '&sort=author-date&order=asc');
    assert.equal(asc[0], windlass.sha);
    const desc = await shas('', '&sort=author-date&order=desc');
    assert.deepEqual(desc, [...asc].reverse());
    assert.equal((await commitQ('x merge:maybe')).status, 422);
    assert.equal((await commitQ('x hash:zz')).status, 422);
    assert.equal((await get(`/search/commits?q=x&sort=stars`, alice.token)).status, 422);
  });

  test('commit and code items carry the repository record lists carry; a committer with an account is also the commit\'s identity', async () => {
    const quay = await createRepo(t, bob, { name: `${tag}-quay` });
    await t.octokit(alice.token).rest.activity.starRepoForAuthenticatedUser({ owner: quay.owner, repo: quay.repo });
    const dir = tempDir();
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, bob.login, quay.repo, bob.login, bob.token), dir]);
    const asBob = { GIT_COMMITTER_EMAIL: `${bob.login}@example.com`, GIT_COMMITTER_NAME: 'Bob Bollard', GIT_COMMITTER_DATE: '2023-05-06T07:08:09Z' };
    await commit(dir, { 'mooring.txt': `${tag}Mooring line\n` }, `Tie the ${tag}Mooring`, asBob);
    await gitOk(['push', '-q', 'origin', 'HEAD'], { cwd: dir });
    await idle();
    const { data: listed } = await t.octokit(alice.token).rest.repos.listForUser({ username: bob.login });
    const record = listed.find((r) => r.name === quay.repo)!;
    assert.equal(record.stargazers_count, 1);

    const commits = await commitQ(`${tag}Mooring repo:${quay.owner}/${quay.repo}`);
    assertMatchesOpenApi('GET', '/search/commits', 200, commits.body);
    const [item] = commits.body.items as Json[];
    assert.deepEqual(item!.repository, record);
    assert.equal(item!.committer.login, bob.login);
    assert.deepEqual([item!.committer.name, item!.committer.email, item!.committer.date], ['Bob Bollard', `${bob.login}@example.com`, '2023-05-06T07:08:09Z']);
    assert.deepEqual(item!.commit.committer, { name: 'Bob Bollard', email: `${bob.login}@example.com`, date: '2023-05-06T07:08:09Z' });

    const code = await codeQ(`${tag}Mooring repo:${quay.owner}/${quay.repo}`);
    assertMatchesOpenApi('GET', '/search/code', 200, code.body);
    assert.deepEqual((code.body.items as Json[]).map((i) => i.repository), [record]);
    // Anonymous callers get the record without permissions, as in lists.
    const anonymous = await get(`/search/code?q=${encodeURIComponent(`${tag}Mooring repo:${quay.owner}/${quay.repo}`)}`);
    assert.equal(anonymous.body.items[0].repository.permissions, undefined);
    assert.equal(anonymous.body.items[0].repository.stargazers_count, 1);
  });

  test('a push makes new content findable and removed content unfindable; a force push drops commits', async () => {
    const before = await codeQ(`${tag}Windlass repo:${pub.owner}/${pub.repo}`);
    const guide = (before.body.items as Json[]).find((i) => i.path === 'docs/guide.md')!;
    await commit(work, { 'docs/guide.md': null, 'src/capstan.ts': `export const ${tag}Capstan = 1;\n` }, `Capstan ${tag}bollard`);
    await gitOk(['push', '-q', 'origin', 'HEAD'], { cwd: work });
    await idle();
    assert.deepEqual(((await codeQ(`${tag}Windlass repo:${pub.owner}/${pub.repo}`)).body.items as Json[]).map((i) => i.path), ['src/anchor.ts']);
    const capstan = await codeQ(`${tag}capstan`);
    assert.deepEqual((capstan.body.items as Json[]).map((i) => i.path), ['src/capstan.ts']);
    assert.notEqual(capstan.body.items[0].url.split('ref=')[1], guide.url.split('ref=')[1]);
    assert.equal((await commitQ(`${tag}bollard`)).body.total_count, 1);

    // History rewritten: the commit leaves the index, its files too.
    await gitOk(['reset', '-q', '--hard', 'HEAD~1'], { cwd: work });
    await gitOk(['push', '-q', '-f', 'origin', 'HEAD'], { cwd: work });
    await idle();
    assert.equal((await commitQ(`${tag}bollard`)).body.total_count, 0);
    assert.equal((await codeQ(`${tag}capstan`)).body.total_count, 0);
    assert.equal((await codeQ(`${tag}Windlass repo:${pub.owner}/${pub.repo}`)).body.total_count, 2);

    // A new default branch: its files are what the index holds.
    await gitOk(['checkout', '-q', '-b', 'lane'], { cwd: work });
    await commit(work, { 'lane.txt': `${tag}Gangway\n` }, 'Lane');
    await gitOk(['push', '-q', 'origin', 'lane'], { cwd: work });
    await idle();
    assert.equal((await codeQ(`${tag}gangway`)).body.total_count, 0);
    await t.octokit(alice.token).rest.repos.update({ owner: pub.owner, repo: pub.repo, default_branch: 'lane' });
    await idle();
    assert.deepEqual(((await codeQ(`${tag}gangway`)).body.items as Json[]).map((i) => i.path), ['lane.txt']);
    await t.octokit(alice.token).rest.repos.update({ owner: pub.owner, repo: pub.repo, default_branch: 'main' });
    await idle();
    assert.equal((await codeQ(`${tag}gangway`)).body.total_count, 0);

    // A renamed repository answers under its new name without re-reading anything.
    await t.octokit(alice.token).rest.repos.update({ owner: pub.owner, repo: pub.repo, name: `${pub.repo}-renamed` });
    const renamed = await codeQ(`${tag}Windlass filename:anchor.ts`);
    assert.equal(renamed.body.items[0].repository.full_name, `${pub.owner}/${pub.repo}-renamed`);
    await idle();
  });

  test('limits: 304 on a conditional request, the 1,000-result cap, 256 characters', async () => {
    const url = `/search/code?q=${tag}Windlass`;
    const first = await t.request(url, { token: alice.token });
    const etag = first.headers.get('etag')!;
    assert.ok(etag);
    assert.equal((await t.request(url, { token: alice.token, headers: { 'if-none-match': etag } })).status, 304);
    assert.equal((await get(`/search/code?q=${tag}Windlass&page=11&per_page=100`, alice.token)).status, 422);
    assert.equal((await codeQ('a'.repeat(257))).status, 422);
    // Code search spends a budget of its own, apart from the other searches'.
    const before = (await get('/rate_limit', alice.token)).body.resources;
    await codeQ(`${tag}Windlass`);
    const after = (await get('/rate_limit', alice.token)).body.resources;
    assert.equal(after.code_search.used, before.code_search.used + 1);
    assert.equal(after.search.used, before.search.used);
    assert.equal((await commitQ('a'.repeat(257))).status, 422);
  });

  test('cli search reindex: re-reads what changed while no index worker ran, printing progress', async () => {
    const name = `${tag}-dock`;
    const dock = await createRepo(t, alice, { name });
    await idle();
    await t.server.searchIndex.stop();
    await t.octokit(alice.token).rest.repos.createOrUpdateFileContents({
      owner: dock.owner, repo: dock.repo, path: 'crane.txt', message: `Crane ${tag}hoist`, content: Buffer.from(`${tag}Hoist lifts\n`).toString('base64'),
    });
    assert.equal((await codeQ(`${tag}hoist`)).body.total_count, 0);

    const one = await cli(t, 'search', 'reindex', '--repo', `${dock.owner}/${dock.repo}`);
    assert.equal(one.code, 0, one.stderr);
    assert.match(one.stdout, new RegExp(`^\\[1/1\\] ${dock.owner}/${dock.repo}: full, 2 commits, 2 files$`, 'm'));
    assert.match(one.stdout, /^indexed 1 repository$/m);
    assert.equal((await codeQ(`${tag}hoist`)).body.total_count, 1);
    assert.equal((await commitQ(`${tag}hoist`)).body.total_count, 1);
    t.server.searchIndex.start();
    await idle();

    const everything = await cli(t, 'search', 'reindex', '--changes-only');
    assert.equal(everything.code, 0, everything.stderr);
    assert.match(everything.stdout, new RegExp(`${dock.owner}/${dock.repo}: unchanged, 0 commits, 0 files`));
    assert.match(everything.stdout, /^indexed \d+ repositories$/m);

    // A deleted repository's commits and files go with it.
    await t.octokit(await createToken(t, alice.login, ['repo', 'delete_repo'])).rest.repos.delete({ owner: dock.owner, repo: dock.repo });
    assert.equal((await codeQ(`${tag}hoist`)).body.total_count, 0);
    assert.equal((await commitQ(`${tag}hoist`)).body.total_count, 0);
    assert.equal(await t.server.ctx.db.selectFrom('search_code').select('id').where('repository_id', '=', dock.id).executeTakeFirst(), undefined);
    // Their text too (on SQLite the FTS5 table has no foreign key: a trigger removes it).
    const orphans = await sql<{ n: number }>`SELECT count(*) AS n FROM search_code_text WHERE rowid NOT IN (SELECT id FROM search_code)`.execute(t.server.ctx.db);
    assert.equal(Number(orphans.rows[0]!.n), 0);
  });
});
