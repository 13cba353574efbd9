// git on a full disk fails as storage (GitStorageFullError: 507), never as git's own
// answer (GitError), which callers read as a ref that moved meanwhile (409 "read the
// file again and retry"). git names ENOSPC for an object but not for a ref's lock file.
// Found by the faults suite: a contents write on a full disk answered 409.
// Needs a small tmpfs, so root; skipped otherwise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hashObject, initBare, updateRef, ZERO_SHA } from '../src/git/repository.ts';
import { GitError, GitStorageFullError } from '../src/git/run.ts';
import { isStorageFull } from '../src/db/failures.ts';

const root = process.getuid?.() === 0;

test('a ref update or an object write on a full disk is a storage failure, not a git answer', { skip: root ? false : 'mounting a small tmpfs needs root' }, async () => {
  const mount = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-git-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mount]);
  try {
    const dir = path.join(mount, 'r.git');
    await initBare(dir, 'main');
    const blob = await hashObject(dir, 'blob', 'x\n');
    const tree = await hashObject(dir, 'tree', Buffer.concat([Buffer.from('100644 f\0'), Buffer.from(blob, 'hex')]));
    const commit = await hashObject(dir, 'commit', `tree ${tree}\nauthor a <a@x> 0 +0000\ncommitter a <a@x> 0 +0000\n\nm\n`);
    await updateRef(dir, 'refs/heads/main', commit, ZERO_SHA);
    // A race is still git's answer.
    await assert.rejects(updateRef(dir, 'refs/heads/main', commit, blob), (err) => err instanceof GitError && !isStorageFull(err));
    fs.writeFileSync(path.join(mount, 'fill'), Buffer.alloc(0));
    try {
      const fd = fs.openSync(path.join(mount, 'fill'), 'w');
      try { for (;;) fs.writeSync(fd, Buffer.alloc(64 * 1024)); } finally { fs.closeSync(fd); }
    } catch (err) {
      assert.equal((err as NodeJS.ErrnoException).code, 'ENOSPC');
    }
    await assert.rejects(updateRef(dir, 'refs/heads/other', commit, ZERO_SHA), (err) => err instanceof GitStorageFullError && isStorageFull(err));
    await assert.rejects(hashObject(dir, 'blob', Buffer.alloc(200_000, 7)), (err) => err instanceof GitStorageFullError && isStorageFull(err));
  } finally {
    execFileSync('umount', ['-l', mount]);
    fs.rmSync(mount, { recursive: true, force: true });
  }
});
