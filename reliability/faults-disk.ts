// Fault: the data directory's disk fills up (issue #22 § 1). WHARF_DATA_DIR is on a
// small filesystem of its own (a tmpfs with a size limit: the same ENOSPC as a small
// loop-mounted disk, and no image file to make), holding the SQLite database and the
// repositories (on PostgreSQL, the repositories only). Under a load of issue creates,
// contents API file creates, git pushes and reads, a filler file takes every free
// byte and is topped up while it is held full; then it is deleted.
//
// What must hold:
//   - while the disk is full, every answer is a success or a clean 507 (or 503) in the
//     spec's error body: never a 500, never a hang (each request has a time limit);
//     a push either succeeds or git says it failed; reads go on answering 200
//   - Wharf's process stays up
//   - once space returns, every kind of write succeeds again within recoverLimitMs,
//     without restarting Wharf
//   - every acknowledged write is there; the SQLite database passes PRAGMA
//     integrity_check; every repository passes git fsck; Wharf starts again on the dir
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import SqliteDatabase from 'better-sqlite3';
import type { Figure } from './figures.ts';
import {
  call, callOk, FaultSetupUnavailable, figureSink, isErrorBody, LOGIN, makeUser, sample, sleep, startWharf, tally, tempDir, type Wharf, type WharfOptions,
} from './faults-common.ts';
import { git, gitOk } from './git.ts';
import { createSchema, dropSchema } from './wharf-env.ts';

export interface DiskFaultOptions extends WharfOptions {
  dialect: 'sqlite' | 'postgres';
  /** PostgreSQL: the database in which a fresh schema is made (and dropped after). */
  databaseUrl?: string;
  /** Size of the small filesystem, MiB. */
  sizeMiB?: number;
  /** Load before the disk fills and after space returns, ms. */
  loadMs?: number;
  /** How long the disk is held full, ms. */
  fullMs?: number;
  requestTimeoutMs?: number;
  /** Every kind of write must succeed again this soon after space returns, ms. */
  recoverLimitMs?: number;
  /** Start Wharf once more on the data dir at the end and write [true]. */
  restartCheck?: boolean;
  progress?: (line: string) => void;
}

type Kind = 'issue' | 'contents' | 'push' | 'read';
interface Sample { kind: Kind; start: number; end: number; status: number; error?: string; body: unknown }

function exec(file: string, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { encoding: 'utf8', timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0, out: `${stdout}${stderr}`.trim() });
    });
  });
}

/** Mounts a tmpfs of sizeMiB at dir; the reason it cannot, or null. */
async function mountSmall(dir: string, sizeMiB: number): Promise<string | null> {
  if (process.platform !== 'linux') return 'mounting a small filesystem needs Linux';
  if (process.getuid?.() !== 0) return 'mounting a small filesystem needs root';
  const r = await exec('mount', ['-t', 'tmpfs', '-o', `size=${sizeMiB}m,mode=0755`, 'tmpfs', dir]);
  return r.code === 0 ? null : `mount -t tmpfs failed: ${r.out}`;
}

/** Why the suite cannot run here, or null. */
export function diskFaultSkipReason(): string | null {
  if (process.platform !== 'linux') return 'mounting a small filesystem needs Linux';
  if (process.getuid?.() !== 0) return 'mounting a small filesystem needs root';
  return null;
}

/** Writes the filler until the disk refuses (ENOSPC); returns the bytes written. */
function topUp(fd: number): number {
  let written = 0;
  for (const size of [1 << 20, 64 << 10, 4 << 10, 512]) {
    const chunk = Buffer.alloc(size, 0x61);
    for (;;) {
      try { written += fs.writeSync(fd, chunk); } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break;
        throw err;
      }
    }
  }
  return written;
}

export async function runDiskFaults(o: DiskFaultOptions): Promise<Figure[]> {
  const progress = o.progress ?? (() => {});
  const loadMs = o.loadMs ?? 2000;
  const fullMs = o.fullMs ?? 5000;
  const requestTimeoutMs = o.requestTimeoutMs ?? 15_000;
  const recoverLimitMs = o.recoverLimitMs ?? 10_000;
  const figures: Figure[] = [];
  const fig = figureSink(`faults: disk full (${o.dialect})`, figures);

  const work = tempDir('wharf-faults-disk-');
  const mountPoint = path.join(work, 'small');
  fs.mkdirSync(mountPoint);
  const cannot = await mountSmall(mountPoint, o.sizeMiB ?? 24);
  if (cannot) {
    fs.rmSync(work, { recursive: true, force: true });
    throw new FaultSetupUnavailable(cannot);
  }
  const dataDir = path.join(mountPoint, 'data');
  const filler = path.join(mountPoint, 'filler');
  let schema: string | undefined;
  let wharf: Wharf | null = null;
  try {
    const extra: NodeJS.ProcessEnv = {};
    if (o.dialect === 'postgres') {
      schema = await createSchema(o.databaseUrl, 'faults');
      Object.assign(extra, { DATABASE_URL: o.databaseUrl, WHARF_DATABASE_SCHEMA: schema });
    }
    wharf = await startWharf(o, dataDir, extra);
    const w = wharf;
    const token = await makeUser(w);
    const repo = `/repos/${LOGIN}/disk-faults`;
    await callOk(w.base, token, 'POST', '/user/repos', { name: 'disk-faults', auto_init: true });
    const remote = new URL(`${w.base}/${LOGIN}/disk-faults.git`);
    remote.username = LOGIN;
    remote.password = token;
    const clone = path.join(work, 'clone');
    await gitOk(['clone', '-q', remote.toString(), clone]);
    await gitOk(['checkout', '-q', '-b', 'pushed'], clone);
    progress(`faults (disk full, ${o.dialect}): Wharf up on ${w.base}, data dir on a ${o.sizeMiB ?? 24} MiB tmpfs`);

    // ------------------------------------------------------------ the load
    const samples: Sample[] = [];
    const ackedIssues: { number: number; title: string }[] = [];
    const ackedFiles: { path: string; content: string }[] = [];
    const ackedPushes: string[] = [];
    let stopping = false;
    const record = (kind: Kind, start: number, a: { status: number; error?: string; json?: unknown }) => {
      samples.push({ kind, start, end: performance.now(), status: a.status, error: a.error, body: a.json });
    };
    const pause = (status: number) => (status >= 200 && status < 300 ? Promise.resolve() : sleep(25));
    const issueLoop = async () => {
      while (!stopping) {
        const title = `disk fault ${randomUUID()}`;
        const start = performance.now();
        const a = await call(w.base, token, 'POST', `${repo}/issues`, { title, body: 'x'.repeat(2000) }, requestTimeoutMs);
        record('issue', start, a);
        const n = (a.json as { number?: unknown } | null)?.number;
        if (a.status === 201 && typeof n === 'number') ackedIssues.push({ number: n, title });
        await pause(a.status);
      }
    };
    const contentsLoop = async () => {
      let n = 0;
      while (!stopping) {
        const file = `files/f-${++n}-${randomUUID()}.txt`;
        const content = `${randomBytes(3000).toString('hex')}\n`;
        const start = performance.now();
        const a = await call(w.base, token, 'PUT', `${repo}/contents/${file}`, { message: `add ${file}`, content: Buffer.from(content).toString('base64'), branch: 'main' }, requestTimeoutMs);
        record('contents', start, a);
        if (a.status === 201) ackedFiles.push({ path: file, content });
        await pause(a.status);
      }
    };
    const pushLoop = async () => {
      let n = 0;
      while (!stopping) {
        fs.writeFileSync(path.join(clone, `push-${++n}.bin`), randomBytes(20_000));
        await gitOk(['add', '-A'], clone);
        await gitOk(['commit', '-q', '-m', `disk push ${n}`], clone);
        const sha = (await gitOk(['rev-parse', 'HEAD'], clone)).trim();
        const start = performance.now();
        const r = await git(['push', '-q', 'origin', 'HEAD:refs/heads/pushed'], clone, requestTimeoutMs);
        // A push is acknowledged when git says so; git's own failure report is a clean refusal.
        // git names the HTTP status when the server answered one instead of its report.
        const http = /(?:RPC failed; HTTP|returned error:) (\d{3})/.exec(r.stderr);
        const status = r.code === 0 ? 200 : r.code === -1 ? 0 : http ? Number(http[1]) : 507;
        record('push', start, { status, error: r.code === 0 ? undefined : r.stderr.trim().split('\n').slice(-2).join(' | ') });
        if (r.code === 0) ackedPushes.push(sha);
        await pause(status);
      }
    };
    const readLoop = async () => {
      while (!stopping) {
        const some = ackedIssues.length ? ackedIssues[Math.floor(Math.random() * ackedIssues.length)]! : null;
        const start = performance.now();
        const a = await call(w.base, token, 'GET', some ? `${repo}/issues/${some.number}` : repo, undefined, requestTimeoutMs);
        record('read', start, a);
        await pause(a.status);
      }
    };
    const loops = Promise.all([issueLoop(), contentsLoop(), pushLoop(), readLoop()]);

    // ------------------------------------------------------------ the fill
    await sleep(loadMs);
    const fd = fs.openSync(filler, 'w');
    let fullAt = 0;
    let freedAt = 0;
    try {
      let bytes = topUp(fd);
      fullAt = performance.now();
      progress(`  disk full (filler ${(bytes / 2 ** 20).toFixed(1)} MiB); held ${fullMs} ms`);
      // Held full (whatever Wharf frees, a failed write's temp files, is taken again) for
      // fullMs, and on a slow machine until a write made wholly inside it was refused
      // (SQLite reuses its WAL's space, so issue creates may go on succeeding a while).
      const refusedInside = () => samples.some((s) => s.kind !== 'read' && s.start >= fullAt && (s.status === 507 || s.status === 503));
      while (performance.now() < fullAt + fullMs || (!refusedInside() && performance.now() < fullAt + fullMs + 20_000)) {
        await sleep(50);
        bytes += topUp(fd);
      }
    } finally {
      fs.closeSync(fd);
      fs.rmSync(filler, { force: true });
      freedAt = performance.now();
    }
    progress(`  space back; ${ackedIssues.length} issues, ${ackedFiles.length} files, ${ackedPushes.length} pushes acknowledged`);
    // Load until every kind of write succeeded again (or the limit passed), then a little more.
    const recovered = () => (['issue', 'contents', 'push'] as const).every((k) => samples.some((s) => s.kind === k && s.start >= freedAt && s.status >= 200 && s.status < 300));
    while (!recovered() && performance.now() < freedAt + recoverLimitMs + requestTimeoutMs) await sleep(50);
    await sleep(loadMs);
    stopping = true;
    await loops;

    // ------------------------------------------------------------ the figures
    fig('Wharf process alive throughout (never restarted)', w.alive() ? 'yes' : `no (exit ${w.child.process.exitCode ?? w.child.process.signalCode})`, w.alive(),
      w.alive() ? undefined : w.child.output().slice(-1500));
    const during = samples.filter((s) => s.start >= fullAt && s.end <= freedAt);
    const writesDuring = during.filter((s) => s.kind !== 'read');
    const describe = (s: Sample) => `${s.kind}: ${s.status || ''} ${s.error ?? ''} ${s.body ? JSON.stringify(s.body).slice(0, 160) : ''}`.trim();
    fig('write answers while the disk was full', ['issue', 'contents', 'push'].map((k) => `${k} ${tally(writesDuring.filter((s) => s.kind === k).map((s) => s.status || s.error || 0))}`).join('; '), null);
    const refused = writesDuring.filter((s) => s.status === 507 || s.status === 503);
    fig('writes refused for want of space (507/503; 0: the fill did not bite)', String(refused.length), refused.length > 0 ? true : null);
    const unclean = samples.filter((s) => {
      if (s.status >= 200 && s.status < 300) return false;
      if (s.kind === 'push') return s.status !== 507; // git reported the failure; 0 is a hang
      return !((s.status === 507 || s.status === 503) && isErrorBody(s.body));
    });
    fig('answers not a success nor a clean 507/503 (500s, hangs, resets)', `${unclean.length} of ${samples.length}`, unclean.length === 0, sample(unclean.map(describe)));
    // Not a verdict: every authenticated request writes (its rate-limit counter, the
    // token's last use), and Wharf refuses rather than skip that count, so on a full
    // SQLite disk reads answer 507 too (clean, and counted above).
    const readsDuring = during.filter((s) => s.kind === 'read');
    fig('reads while the disk was full', tally(readsDuring.map((s) => s.status || s.error || 0)), null);

    const recoveries: string[] = [];
    let worst = 0;
    let never = 0;
    for (const kind of ['issue', 'contents', 'push'] as const) {
      const first = samples.find((s) => s.kind === kind && s.start >= freedAt && s.status >= 200 && s.status < 300);
      if (!first) { never++; recoveries.push(`${kind}: never`); continue; }
      worst = Math.max(worst, first.end - freedAt);
      recoveries.push(`${kind}: ${Math.round(first.end - freedAt)} ms`);
    }
    fig(`every kind of write succeeds again once space returns (limit ${recoverLimitMs / 1000} s)`, never ? `${never} kinds never` : `worst ${(worst / 1000).toFixed(2)} s`,
      never === 0 && worst <= recoverLimitMs, recoveries.join('\n'));
    const lateFailures = samples.filter((s) => s.start >= freedAt + recoverLimitMs && !(s.status >= 200 && s.status < 300));
    fig('writes failing once recovered (made later than the limit after space returned)', String(lateFailures.length), lateFailures.length === 0, sample(lateFailures.map(describe)));

    // Acknowledged writes.
    const lost: string[] = [];
    const titles = new Map<number, string>();
    for (let page = 1; ; page++) {
      const items = await callOk(w.base, token, 'GET', `${repo}/issues?state=all&per_page=100&page=${page}`) as unknown as { number: number; title: string }[];
      for (const i of items) titles.set(i.number, i.title);
      if (items.length < 100) break;
    }
    for (const i of ackedIssues) if (titles.get(i.number) !== i.title) lost.push(`issue #${i.number} "${i.title}": not there`);
    for (const f of ackedFiles) {
      const a = await call(w.base, token, 'GET', `${repo}/contents/${f.path}?ref=main`, undefined, requestTimeoutMs);
      const content = a.status === 200 ? Buffer.from(String((a.json as { content?: string }).content ?? ''), 'base64').toString('utf8') : null;
      if (content !== f.content) lost.push(`file ${f.path}: ${a.status === 200 ? 'different content' : `GET answered ${a.status || a.error}`}`);
    }
    for (const sha of ackedPushes) {
      const a = await call(w.base, token, 'GET', `${repo}/compare/${sha}...pushed`, undefined, requestTimeoutMs);
      const status = (a.json as { status?: string } | null)?.status;
      if (a.status !== 200 || (status !== 'identical' && status !== 'ahead')) lost.push(`push ${sha}: ${a.status === 200 ? `branch is ${status} of it` : `compare answered ${a.status || a.error}`}`);
    }
    const ackedCount = ackedIssues.length + ackedFiles.length + ackedPushes.length;
    fig('acknowledged writes lost', `${lost.length} of ${ackedCount}`, ackedCount > 0 && lost.length === 0, ackedCount ? sample(lost) : 'no write was acknowledged');
    fig('  of which issues / files / pushes acknowledged', `${ackedIssues.length} / ${ackedFiles.length} / ${ackedPushes.length}`, null);

    // On disk, with Wharf stopped: git fsck of every repository, SQLite's integrity check,
    // then Wharf must start again on the same data.
    await w.stop();
    wharf = null;
    const reposDir = path.join(dataDir, 'repos');
    const repoDirs = fs.existsSync(reposDir) ? fs.readdirSync(reposDir).filter((d) => d.endsWith('.git')).map((d) => path.join(reposDir, d)) : [];
    const fsckBad: string[] = [];
    for (const dir of repoDirs) {
      const r = await git(['fsck', '--no-progress', '--no-dangling', '--strict'], dir, 120_000);
      if (r.code !== 0) fsckBad.push(`${path.basename(dir)}: ${r.stderr.trim().split('\n').slice(0, 3).join(' | ')}`);
    }
    fig('repositories passing git fsck --strict', `${repoDirs.length - fsckBad.length} of ${repoDirs.length}`, repoDirs.length > 0 && fsckBad.length === 0, sample(fsckBad));
    if (o.dialect === 'sqlite') {
      let check: string;
      try {
        const db = new SqliteDatabase(path.join(dataDir, 'wharf.sqlite'), { readonly: true, fileMustExist: true });
        try {
          check = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; ');
        } finally { db.close(); }
      } catch (err) {
        check = `could not open: ${(err as Error).message}`;
      }
      fig('SQLite PRAGMA integrity_check', check.slice(0, 200), check === 'ok', check);
    }
    if (o.restartCheck === false) return figures;
    const again = await startWharf(o, dataDir, extra).then((x) => ({ ok: true as const, w: x }), (err: Error) => ({ ok: false as const, err }));
    if (again.ok) {
      const a = await call(again.w.base, token, 'POST', `${repo}/issues`, { title: 'after restart' }, requestTimeoutMs);
      await again.w.stop();
      fig('Wharf starts again on the data dir and takes a write', a.status === 201 ? 'yes' : `write answered ${a.status || a.error}`, a.status === 201);
    } else {
      fig('Wharf starts again on the data dir and takes a write', 'no', false, again.err.message.slice(0, 1500));
    }
    return figures;
  } catch (err) {
    if (wharf) (err as Error).message += `\nlast output of Wharf:\n${wharf.child.output().slice(-3000)}`;
    throw err;
  } finally {
    if (wharf) await wharf.stop();
    const r = await exec('umount', [mountPoint]);
    if (r.code !== 0) await exec('umount', ['-l', mountPoint]);
    fs.rmSync(work, { recursive: true, force: true });
    await dropSchema(o.databaseUrl, schema);
  }
}
