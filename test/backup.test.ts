// Backup and restore (issue #22 § Operations), as an operator runs them: `backup DIR`
// as a child process while a server serves the data dir and pushes go on, the server
// stopped (its data dir and database dropped), `restore DIR` into a new data dir, and a
// server started there checked through the API and the git binary.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN_TOKEN, dropPgSchema, startTestServer, testDialect, type TestServer } from './helpers/server.ts';
import { programArgs } from './helpers/programs.ts';
import { cloneUrl, git, gitOk, tempDir } from './helpers/git.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo, type CreatedRepo } from './factories/repos.ts';
import { cloneAs, commitFiles, push, type Clone } from './factories/pulls.ts';
import { repoDir } from '../src/git/repository.ts';
import { copyRepository } from '../src/git/repository-copy.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const postgres = testDialect() === 'postgres';
const pgUrl = process.env.WHARF_TEST_DATABASE_URL;

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment an operator's shell would have for a data dir (and PostgreSQL schema). */
function envFor(dataDir: string, pgSchema: string | undefined, extra: Record<string, string> = {}): Record<string, string> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(
    (e): e is [string, string] => e[1] !== undefined && !/^(DATABASE_URL|WHARF_|PORT$|HOST$|LOG_LEVEL$)/.test(e[0]),
  ));
  return {
    ...inherited, WHARF_DATA_DIR: dataDir, LOG_LEVEL: 'silent', WHARF_SSH_PORT: '0',
    ...(postgres && pgSchema ? { DATABASE_URL: pgUrl!, WHARF_DATABASE_SCHEMA: pgSchema } : {}),
    ...extra,
  };
}

function cli(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [...programArgs('cli/main.ts'), ...args], { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') return reject(err);
      resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
    });
  });
}

function sha256(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

function listing(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String).sort() : [];
}

describe('backup and restore', () => {
  let t: TestServer;
  let originalClosed = false;
  let restored: TestServer | undefined;
  let alice: CreatedUser;
  let repo: CreatedRepo;
  let clone: Clone;
  let issueNumber: number;
  let commentBody: string;
  let secretKey: Buffer;
  const pushed: string[] = [];
  const backupDir = path.join(tempDir('wharf-backup-'), 'backup');
  const restoredDir = path.join(tempDir('wharf-restored-'), 'data');
  let pgSchema: string | undefined;

  before(async () => {
    t = await startTestServer();
    pgSchema = t.pgSchema;
    alice = await createUser(t, ['repo', 'user']);
    repo = await createRepo(t, alice);
    clone = await cloneAs(t, repo.owner, repo.repo, alice);
    pushed.push(await commitFiles(clone, { 'src/one.txt': 'one\n' }, 'first pushed commit'));
    pushed.push(await commitFiles(clone, { 'src/two.txt': 'two\n' }, 'second pushed commit'));
    await push(clone, 'HEAD:main');
    await push(clone, 'HEAD:refs/heads/feature');
    const kit = t.octokit(alice.token);
    const { data: issue } = await kit.rest.issues.create({ owner: repo.owner, repo: repo.repo, title: 'Kept through a restore', body: 'issue body' });
    issueNumber = issue.number;
    commentBody = `a comment ${Date.now()}`;
    await kit.rest.issues.createComment({ owner: repo.owner, repo: repo.repo, issue_number: issueNumber, body: commentBody });
    secretKey = fs.readFileSync(path.join(t.dataDir, 'secret.key'));
  });

  after(async () => {
    await restored?.close();
    if (!originalClosed) await t.close();
    fs.rmSync(restoredDir, { recursive: true, force: true });
    if (postgres && pgSchema && !process.env.WHARF_TEST_KEEP_SCHEMAS) await dropPgSchema(pgUrl!, pgSchema).catch(() => undefined);
  });

  test('backup into a non-empty directory exits 1 and writes nothing', async () => {
    const dir = tempDir('wharf-backup-full-');
    fs.writeFileSync(path.join(dir, 'something.txt'), 'mine\n');
    const r = await cli(envFor(t.dataDir, pgSchema), 'backup', dir);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /is not empty: a backup goes into a new or empty directory/);
    assert.deepEqual(listing(dir), ['something.txt']);
  });

  test('restore from a directory without a manifest exits 1, and creates no data dir', async () => {
    const dir = tempDir('wharf-not-a-backup-');
    fs.writeFileSync(path.join(dir, 'wharf.sqlite'), 'not a database');
    const target = path.join(tempDir('wharf-target-'), 'data');
    const r = await cli(envFor(target, pgSchema), 'restore', dir);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /holds no Wharf backup: manifest\.json is missing/);
    assert.equal(fs.existsSync(target), false);
  });

  test('backup while the server serves and pushes go on: a manifest, the database, every repository', async (ctx) => {
    // Pushes one after another for as long as the backup runs: some land while it copies.
    let backingUp = true;
    let duringBackup = 0;
    const pushing = (async () => {
      for (let i = 0; backingUp && i < 50; i++) {
        const files: Record<string, string> = {};
        for (let f = 0; f < 20; f++) files[`bulk/${i}/${f}.txt`] = `${i}-${f} ${'x'.repeat(2000)}\n`;
        const sha = await commitFiles(clone, files, `pushed during the backup ${i}`);
        await push(clone, 'HEAD:main');
        pushed.push(sha);
        if (backingUp) duringBackup += 1;
      }
    })();
    const r = await cli(envFor(t.dataDir, pgSchema), 'backup', backupDir).finally(() => { backingUp = false; });
    await pushing;
    assert.equal(r.code, 0, r.stderr);
    ctx.diagnostic(`${duringBackup} pushes landed while the backup ran`);
    assert.ok(duringBackup >= 1, 'no push landed while the backup ran');
    assert.match(r.stdout, /^repositories: 1 to copy$/m);
    assert.match(r.stdout, new RegExp(`^repository 1/1 \\(id ${repo.id}\\): \\d+ refs`, 'm'));
    assert.match(r.stdout, /^backup complete: 1 repository /m);
    const manifest = JSON.parse(fs.readFileSync(path.join(backupDir, 'manifest.json'), 'utf8'));
    assert.equal(manifest.format, 'wharf-backup');
    assert.equal(manifest.dialect, testDialect());
    assert.match(manifest.migrations.latest, /^\d{4}-/);
    assert.deepEqual(manifest.repositories.ids, [repo.id]);
    assert.ok(manifest.counts.issues >= 1 && manifest.counts.issue_comments >= 1, JSON.stringify(manifest.counts));
    assert.equal(manifest.secretKey, 'file');
    assert.equal(manifest.database.kind, postgres ? 'pg_dump' : 'sqlite');
    assert.ok(fs.existsSync(path.join(backupDir, manifest.database.file)));
    assert.deepEqual(fs.readFileSync(path.join(backupDir, 'data', 'secret.key')), secretKey);
    // The copied repository is whole on its own.
    const copied = repoDir(path.join(backupDir, 'data'), repo.id);
    const fsck = await git(['--git-dir', copied, 'fsck', '--full', '--no-dangling']);
    assert.equal(fsck.code, 0, fsck.stderr);
    assert.equal(fs.existsSync(path.join(backupDir, 'data', 'repos', `${repo.id}.git`, 'config')), true);
  });

  test('restore into a new data dir: refused over a database, and a server on it serves the same data', async () => {
    // The original goes: its data dir is removed and (PostgreSQL) its schema dropped.
    await t.close();
    originalClosed = true;
    assert.equal(fs.existsSync(t.dataDir), false);
    // Under npm test the run keeps every schema until it drops its whole database
    // (WHARF_TEST_KEEP_SCHEMAS): this one must go now, as restore refuses a schema in use.
    if (postgres && pgSchema) await dropPgSchema(pgUrl!, pgSchema);
    const env = envFor(restoredDir, pgSchema);
    const r = await cli(env, 'restore', backupDir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /manifest and files verified/);
    assert.match(r.stdout, /^database: .*restored, opened and migrated, secret key checked$/m);
    assert.match(r.stdout, /^restore complete into /m);
    assert.deepEqual(fs.readFileSync(path.join(restoredDir, 'secret.key')), secretKey);

    // A second restore onto it is refused, and changes nothing.
    const before = listing(restoredDir);
    const dbBefore = postgres ? null : sha256(path.join(restoredDir, 'wharf.sqlite'));
    const again = await cli(env, 'restore', backupDir);
    assert.equal(again.code, 1, again.stderr);
    assert.match(again.stderr, postgres ? /already holds repositories; the database schema \w+ already holds \d+ tables/ : /already holds a database \(wharf\.sqlite\); .* already holds repositories/);
    assert.match(again.stderr, /--force/);
    assert.deepEqual(listing(restoredDir), before);
    if (dbBefore) assert.equal(sha256(path.join(restoredDir, 'wharf.sqlite')), dbBefore);

    // No WHARF_ADMIN_TOKEN: the admin token below is the restored database's.
    restored = await startTestServer({ shareWith: { dataDir: restoredDir, pgSchema } as TestServer, env: { WHARF_ADMIN_TOKEN: '' } });
    const kit = restored.octokit(alice.token);
    const { data: me } = await kit.rest.users.getAuthenticated();
    assert.equal(me.login, alice.login);
    const { data: admin } = await restored.octokit(ADMIN_TOKEN).rest.users.getAuthenticated();
    assert.equal(admin.login, 'admin');
    const { data: issue } = await kit.rest.issues.get({ owner: repo.owner, repo: repo.repo, issue_number: issueNumber });
    assert.equal(issue.title, 'Kept through a restore');
    const { data: comments } = await kit.rest.issues.listComments({ owner: repo.owner, repo: repo.repo, issue_number: issueNumber });
    assert.deepEqual(comments.map((c) => c.body), [commentBody]);

    // git: the restored repository is whole, and a clone has the pushed history.
    const fsck = await git(['--git-dir', repoDir(restoredDir, repo.id), 'fsck', '--full', '--no-dangling']);
    assert.equal(fsck.code, 0, fsck.stderr);
    const dir = tempDir('wharf-restored-clone-');
    await gitOk(['clone', '-q', cloneUrl(restored.baseUrl, repo.owner, repo.repo, alice.login, alice.token), dir]);
    const head = (await gitOk(['rev-parse', 'HEAD'], { cwd: dir })).trim();
    // main is where one of the pushes left it: the last before the copy read the refs.
    const at = pushed.indexOf(head);
    assert.ok(at >= 1, `main ${head} is none of the pushed commits`);
    const subjects = (await gitOk(['log', '--format=%s'], { cwd: dir })).split('\n');
    assert.ok(subjects.includes('first pushed commit') && subjects.includes('second pushed commit'));
    assert.equal((await gitOk(['ls-remote', 'origin', 'refs/heads/feature'], { cwd: dir })).split('\t')[0], pushed[1]);
    // The API reads the same git data.
    const { data: branch } = await kit.rest.repos.getBranch({ owner: repo.owner, repo: repo.repo, branch: 'main' });
    assert.equal(branch.commit.sha, head);
    // And it takes pushes again.
    fs.writeFileSync(path.join(dir, 'after-restore.txt'), 'after\n');
    await gitOk(['add', '-A'], { cwd: dir });
    await gitOk(['commit', '-q', '-m', 'after the restore'], { cwd: dir });
    await gitOk(['push', '-q', 'origin', 'HEAD:main'], { cwd: dir });
  });

  test('PostgreSQL without pg_dump: the files are copied, and the pg_dump command is printed without the password', { skip: postgres ? false : 'PostgreSQL only: on SQLite the backup copies the database itself' }, async () => {
    assert.ok(restored, 'the restored server runs');
    // A PATH with git alone: no pg_dump on this "host".
    const bin = tempDir('wharf-path-');
    const gitBinary = (process.env.PATH ?? '').split(path.delimiter).map((d) => path.join(d, 'git')).find((f) => fs.existsSync(f));
    fs.symlinkSync(gitBinary!, path.join(bin, 'git'));
    const withPassword = new URL(pgUrl!);
    withPassword.password = 'Sup3r-secret-pw';
    const dir = path.join(tempDir('wharf-backup-pg-'), 'backup');
    const r = await cli(envFor(restoredDir, pgSchema, { PATH: bin, DATABASE_URL: withPassword.toString() }), 'backup', dir);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout + r.stderr, /Sup3r-secret-pw/);
    assert.match(r.stdout, /The database is NOT in this backup: pg_dump is not installed/);
    const command = r.stdout.split('\n').find((l) => l.trim().startsWith('pg_dump '));
    assert.ok(command, r.stdout);
    assert.match(command!, new RegExp(`--schema=${pgSchema} `));
    assert.match(command!, new RegExp(`--file=${dir.replaceAll('/', '\\/')}/database\\.dump`));
    assert.match(command!, /--dbname=postgres:\/\/postgres@/);
    assert.match(r.stdout, /give it as PGPASSWORD or in ~\/\.pgpass/);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    assert.equal(manifest.database.kind, 'none');
    assert.doesNotMatch(JSON.stringify(manifest), /Sup3r-secret-pw/);
    assert.deepEqual(manifest.repositories.ids, [repo.id]);
    const fsck = await git(['--git-dir', repoDir(path.join(dir, 'data'), repo.id), 'fsck', '--full', '--no-dangling']);
    assert.equal(fsck.code, 0, fsck.stderr);

    // Its restore: the dump names its schema, which pg_restore cannot rename.
    const target = path.join(tempDir('wharf-target-pg-'), 'data');
    const otherSchema = await cli(envFor(target, 'wharf_test_elsewhere', { PATH: bin }), 'restore', dir);
    assert.equal(otherSchema.code, 1, otherSchema.stderr);
    assert.match(otherSchema.stderr, new RegExp(`set WHARF_DATABASE_SCHEMA=${pgSchema} \\(pg_restore cannot rename a schema\\)`));
    assert.equal(fs.existsSync(target), false);
    // Without pg_restore (nor a dump): the files restored, the pg_restore command printed without the password.
    const guided = await cli(envFor(target, pgSchema, { PATH: bin, DATABASE_URL: withPassword.toString() }), 'restore', dir, '--force');
    assert.equal(guided.code, 0, guided.stderr);
    assert.doesNotMatch(guided.stdout + guided.stderr, /Sup3r-secret-pw/);
    assert.match(guided.stdout, /database: NOT restored: the backup holds no database dump/);
    assert.match(guided.stdout, /^ {2}pg_restore --no-owner .*--dbname=postgres:\/\/postgres@[^ ]+ \S+\/database\.dump$/m);
    assert.ok(fs.existsSync(path.join(repoDir(target, repo.id), 'HEAD')));
    fs.rmSync(target, { recursive: true, force: true });
  });

  test('restore --force replaces what a (stopped) data dir holds with the backup', async () => {
    assert.ok(restored, 'the restored server ran');
    const { data: before } = await restored.octokit(alice.token).rest.repos.getBranch({ owner: repo.owner, repo: repo.repo, branch: 'main' });
    await restored.close();
    restored = undefined;
    const r = await cli(envFor(restoredDir, pgSchema), 'restore', backupDir, '--force');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^--force: removed .*repos/m);
    restored = await startTestServer({ shareWith: { dataDir: restoredDir, pgSchema } as TestServer, env: { WHARF_ADMIN_TOKEN: '' } });
    const { data: after } = await restored.octokit(alice.token).rest.repos.getBranch({ owner: repo.owner, repo: repo.repo, branch: 'main' });
    // The commit pushed after the first restore is gone again: main is where the backup has it.
    assert.notEqual(after.commit.sha, before.commit.sha);
    assert.equal(after.commit.sha, before.commit.parents[0]!.sha);
    const fsck = await git(['--git-dir', repoDir(restoredDir, repo.id), 'fsck', '--full', '--no-dangling']);
    assert.equal(fsck.code, 0, fsck.stderr);
  });
});

test('a repository copied while pushes land and git repacks it (as receive-pack\'s gc --auto does) is whole', async (t) => {
  const work = tempDir('wharf-repack-');
  const bare = path.join(work, 'source.git');
  await gitOk(['init', '-q', '--bare', bare]);
  // Every push a pack of its own (past unpackLimit), as larger pushes to Wharf leave them.
  await gitOk(['--git-dir', bare, 'config', 'receive.unpackLimit', '1']);
  const tree = path.join(work, 'tree');
  await gitOk(['init', '-q', tree]);
  let commits = 0;
  async function pushOne(): Promise<void> {
    fs.writeFileSync(path.join(tree, `f${commits}.txt`), `${commits}\n`.repeat(50 + commits));
    await gitOk(['add', '-A'], { cwd: tree });
    await gitOk(['commit', '-q', '-m', `commit ${commits}`], { cwd: tree });
    await gitOk(['push', '-q', bare, 'HEAD:refs/heads/main'], { cwd: tree });
    commits += 1;
  }
  for (let i = 0; i < 5; i++) await pushOne();
  let churning = true;
  // Packs appear (pushes) and vanish (repack -a -d merges them all into a new one, then deletes them).
  const churn = (async () => {
    let rounds = 0;
    while (churning) {
      await pushOne();
      await gitOk(['--git-dir', bare, 'repack', '-a', '-d', '-q']);
      rounds += 1;
    }
    return rounds;
  })();
  const attempts: number[] = [];
  try {
    for (let i = 0; i < 6; i++) {
      const copy = path.join(work, `copy-${i}.git`);
      const c = await copyRepository(bare, copy);
      attempts.push(c.attempts);
      assert.equal(c.refs, 1);
      const fsck = await git(['--git-dir', copy, 'fsck', '--full', '--no-dangling']);
      assert.equal(fsck.code, 0, `copy ${i}: ${fsck.stderr}`);
      assert.ok(Number((await gitOk(['--git-dir', copy, 'rev-list', '--count', 'main'])).trim()) >= 5);
      assert.equal((await gitOk(['--git-dir', copy, 'config', 'receive.unpackLimit'])).trim(), '1');
    }
  } finally {
    churning = false;
    assert.ok((await churn) >= 1);
  }
  t.diagnostic(`passes per copy: ${attempts.join(', ')}`);
});
