// src/git/merge.ts on real repositories: clean merges, conflicts, a chosen base
// (cherry-pick), squash parents, unrelated histories.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { gitOk, tempDir } from './helpers/git.ts';
import { isConflict, mergeCommits, mergeTrees, MergeRevisionError } from '../src/git/merge.ts';
import type { Ident } from '../src/git/object-format.ts';

let work: string;
let dir: string;
const shas: Record<string, string> = {};

const author: Ident = { name: 'Merger', email: 'merger@example.com', epoch: 1_700_000_000, tz: '+0200' };
const committer: Ident = { name: 'Committer', email: 'committer@example.com', epoch: 1_700_000_100, tz: '+0000' };

async function commitFiles(files: Record<string, string>, message: string): Promise<string> {
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(work, name), content);
  await gitOk(['add', '.'], { cwd: work });
  await gitOk(['commit', '-q', '-m', message], { cwd: work });
  return (await gitOk(['rev-parse', 'HEAD'], { cwd: work })).trim();
}

async function show(rev: string, file: string): Promise<string> {
  return gitOk(['show', `${rev}:${file}`], { cwd: work });
}

before(async () => {
  work = tempDir('wharf-merge-');
  dir = path.join(work, '.git');
  await gitOk(['init', '-q', '-b', 'main'], { cwd: work });
  shas.base = await commitFiles({ 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'b\n' }, 'base');
  await gitOk(['checkout', '-q', '-b', 'topic'], { cwd: work });
  shas.topic1 = await commitFiles({ 'a.txt': 'ONE\ntwo\nthree\n' }, 'topic edits line 1');
  shas.topic2 = await commitFiles({ 'c.txt': 'c\n' }, 'topic adds c');
  await gitOk(['checkout', '-q', 'main'], { cwd: work });
  shas.main1 = await commitFiles({ 'a.txt': 'one\ntwo\nTHREE\n' }, 'main edits line 3');
  await gitOk(['checkout', '-q', '-b', 'clash', shas.base], { cwd: work });
  shas.clash = await commitFiles({ 'a.txt': 'uno\ntwo\nthree\n', 'b.txt': 'bee\n' }, 'clash edits line 1 and b');
  await gitOk(['checkout', '-q', '--orphan', 'lone'], { cwd: work });
  await gitOk(['rm', '-q', '-rf', '.'], { cwd: work });
  shas.lone = await commitFiles({ 'z.txt': 'z\n' }, 'unrelated');
});

after(() => { fs.rmSync(work, { recursive: true, force: true }); });

describe('mergeCommits', () => {
  test('a clean merge writes a merge commit with both sides, in order, and both changes', async () => {
    const r = await mergeCommits(dir, { ours: 'topic', theirs: shas.main1!, message: 'Merge main into topic\n', author, committer });
    assert.ok(!isConflict(r));
    const raw = await gitOk(['cat-file', '-p', r.sha], { cwd: work });
    assert.match(raw, new RegExp(`^tree ${r.tree}\nparent ${shas.topic2}\nparent ${shas.main1}\n`));
    assert.match(raw, /\nauthor Merger <merger@example\.com> 1700000000 \+0200\n/);
    assert.match(raw, /\ncommitter Committer <committer@example\.com> 1700000100 \+0000\n/);
    assert.match(raw, /\n\nMerge main into topic\n$/);
    assert.equal(await show(r.sha, 'a.txt'), 'ONE\ntwo\nTHREE\n');
    assert.equal(await show(r.sha, 'c.txt'), 'c\n');
    // Nothing moved: the caller decides what a ref points at.
    assert.equal((await gitOk(['rev-parse', 'topic'], { cwd: work })).trim(), shas.topic2);
  });

  test('the committer defaults to the author', async () => {
    const r = await mergeCommits(dir, { ours: shas.topic2!, theirs: shas.main1!, message: 'm', author });
    assert.ok(!isConflict(r));
    assert.match(await gitOk(['cat-file', '-p', r.sha], { cwd: work }), /\ncommitter Merger <merger@example\.com> 1700000000 \+0200\n/);
  });

  test('conflicts answer the conflicting paths and write no commit', async () => {
    const r = await mergeCommits(dir, { ours: shas.topic2!, theirs: shas.clash!, message: 'm', author });
    assert.ok(isConflict(r));
    assert.equal(r.reason, 'content');
    assert.deepEqual(r.files, ['a.txt']);
    const both = await mergeTrees(dir, { ours: shas.main1!, theirs: shas.clash! });
    assert.ok(!isConflict(both), 'line 1 and line 3 edits merge cleanly');
  });

  test('parents "ours" writes a squash: one parent, the merged tree', async () => {
    const r = await mergeCommits(dir, { ours: shas.main1!, theirs: shas.topic2!, message: 'squash', author, parents: 'ours' });
    assert.ok(!isConflict(r));
    const raw = await gitOk(['cat-file', '-p', r.sha], { cwd: work });
    assert.equal((raw.match(/^parent /gm) ?? []).length, 1);
    assert.match(raw, new RegExp(`\nparent ${shas.main1}\n`));
    assert.equal(await show(r.sha, 'c.txt'), 'c\n');
  });

  test('a chosen base applies just one commit (cherry-pick)', async () => {
    // topic2 alone (adds c.txt) onto main: topic1's edit of a.txt must not come along.
    const r = await mergeCommits(dir, { base: `${shas.topic2}^`, ours: shas.main1!, theirs: shas.topic2!, message: 'pick', author, parents: 'ours' });
    assert.ok(!isConflict(r));
    assert.equal(await show(r.sha, 'a.txt'), 'one\ntwo\nTHREE\n');
    assert.equal(await show(r.sha, 'c.txt'), 'c\n');
    // Without the base, the whole of topic comes in.
    const whole = await mergeTrees(dir, { ours: shas.main1!, theirs: shas.topic2! });
    assert.ok(!isConflict(whole));
    assert.equal(await gitOk(['show', `${whole.tree}:a.txt`], { cwd: work }), 'ONE\ntwo\nTHREE\n');
  });

  test('unrelated histories are a conflict unless allowed', async () => {
    const refused = await mergeCommits(dir, { ours: shas.main1!, theirs: shas.lone!, message: 'm', author });
    assert.ok(isConflict(refused));
    assert.equal(refused.reason, 'unrelated-histories');
    assert.deepEqual(refused.files, []);
    const allowed = await mergeCommits(dir, { ours: shas.main1!, theirs: shas.lone!, message: 'm', author, allowUnrelatedHistories: true });
    assert.ok(!isConflict(allowed));
    assert.equal(await show(allowed.sha, 'z.txt'), 'z\n');
  });

  test('a revision that names no commit is an error, not a conflict', async () => {
    await assert.rejects(mergeCommits(dir, { ours: 'no-such-branch', theirs: shas.main1!, message: 'm', author }), MergeRevisionError);
    await assert.rejects(mergeTrees(dir, { ours: shas.main1!, theirs: '--output=/tmp/x' }), MergeRevisionError);
    const tree = (await gitOk(['rev-parse', `${shas.main1}^{tree}`], { cwd: work })).trim();
    await assert.rejects(mergeTrees(dir, { ours: shas.main1!, theirs: tree }), MergeRevisionError);
  });
});
