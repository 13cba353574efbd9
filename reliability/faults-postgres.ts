// Fault: PostgreSQL restarted under load (issue #22 § 1). Wharf runs on a private
// cluster (faults-pg-cluster.ts), under a steady load of issue creates and reads; the
// cluster is stopped (a crash: pg_ctl -m immediate, then a clean one: -m fast), kept
// down a while and started again, Wharf left running throughout.
//
// What must hold:
//   - during the outage every request is answered, and with 503 in the spec's error
//     body: not a 500, not a hang (each request has a time limit), not a dropped
//     connection; /readyz says 503 too
//   - Wharf's process stays up (an error of an idle pooled connection must not end it)
//   - once PostgreSQL is back, reads and writes succeed again within recoverLimitMs,
//     without restarting Wharf
//   - every acknowledged (201) issue create is there afterwards
//   - GraphQL and git over HTTP under the same outages (faults-pg-channels.ts): 503s
//     (git exits non-zero on it), no acknowledged mutation or push lost, git fsck clean
// Requests that straddle a stop or a start may succeed or get 503; anything else is a
// MISS wherever it happens.
import { randomUUID } from 'node:crypto';
import type { Figure } from './figures.ts';
import { call, callOk, FaultSetupUnavailable, figureSink, isErrorBody, LOGIN, makeUser, percentile, sample, sleep, startWharf, tally, tempDir, type WharfOptions } from './faults-common.ts';
import { findPgBin, startPgCluster } from './faults-pg-cluster.ts';
import fs from 'node:fs';
import { startChannelLoad, type Channel, type ChannelLoad } from './faults-pg-channels.ts';

export interface PostgresFaultOptions extends WharfOptions {
  /** Restarts of each kind (immediate, fast), one after the other. */
  restarts?: number;
  /** How long PostgreSQL stays down each time, ms. */
  outageMs?: number;
  /** Load before, between and after the restarts, ms. */
  loadMs?: number;
  /** Concurrent writers and readers. */
  writers?: number;
  readers?: number;
  /** Each request's time limit: no answer by then is a hang, ms. */
  requestTimeoutMs?: number;
  /** Reads and writes must succeed again this soon after PostgreSQL is back, ms. */
  recoverLimitMs?: number;
  /** The other channels loaded under the outages too [GraphQL and git over HTTP]. */
  channels?: readonly Channel[];
  progress?: (line: string) => void;
}

/** Why the suite did not run (no PostgreSQL programs here), or null when it can. */
export function postgresFaultSkipReason(): string | null {
  return findPgBin() ? null : 'no PostgreSQL server programs (initdb, pg_ctl) under /usr/lib/postgresql/*/bin or RELIABILITY_PG_BIN';
}

interface Sample { kind: 'write' | 'read'; start: number; end: number; status: number; error?: string; body: unknown }

/** Figures under `faults: postgres restart`; throws only when the setup fails. */
export async function runPostgresFaults(o: PostgresFaultOptions): Promise<Figure[]> {
  const progress = o.progress ?? (() => {});
  const restarts = o.restarts ?? 3;
  const outageMs = o.outageMs ?? 3000;
  const loadMs = o.loadMs ?? 2000;
  const requestTimeoutMs = o.requestTimeoutMs ?? 10_000;
  const recoverLimitMs = o.recoverLimitMs ?? 10_000;
  const figures: Figure[] = [];
  const fig = figureSink('faults: postgres restart', figures);
  const bin = findPgBin();
  if (!bin) throw new Error(postgresFaultSkipReason()!);

  const cluster = await startPgCluster(bin).catch((err: Error) => {
    throw new FaultSetupUnavailable(`a private PostgreSQL cluster could not be started: ${err.message}`);
  });
  const dataDir = tempDir('wharf-faults-pgdata-');
  let wharf: Awaited<ReturnType<typeof startWharf>> | null = null;
  let work: string | null = null;
  try {
    wharf = await startWharf(o, dataDir, { DATABASE_URL: cluster.url, WHARF_WEBHOOK_POLL_MS: '200' });
    const w = wharf;
    const token = await makeUser(w);
    await callOk(w.base, token, 'POST', '/user/repos', { name: 'pg-faults', auto_init: true });
    const repo = `/repos/${LOGIN}/pg-faults`;
    progress(`faults (postgres restart): Wharf up on ${w.base}, PostgreSQL on port ${cluster.port}`);

    // ------------------------------------------------------------ the load
    const samples: Sample[] = [];
    const acked: { number: number; title: string }[] = [];
    let stopping = false;
    const record = async (kind: Sample['kind'], go: () => ReturnType<typeof call>): Promise<Sample> => {
      const start = performance.now();
      const a = await go();
      const s: Sample = { kind, start, end: performance.now(), status: a.status, error: a.error, body: a.json };
      samples.push(s);
      // Failing fast is what is expected while the database is down: do not spin.
      if (a.status < 200 || a.status >= 300) await sleep(20);
      return s;
    };
    const writer = async () => {
      while (!stopping) {
        const title = `pg fault ${randomUUID()}`;
        const s = await record('write', () => call(w.base, token, 'POST', `${repo}/issues`, { title }, requestTimeoutMs));
        const n = (s.body as { number?: unknown } | null)?.number;
        if (s.status === 201 && typeof n === 'number') acked.push({ number: n, title });
      }
    };
    const reader = async () => {
      while (!stopping) {
        const some = acked.length ? acked[Math.floor(Math.random() * acked.length)]! : null;
        await record('read', () => call(w.base, token, 'GET', some ? `${repo}/issues/${some.number}` : repo, undefined, requestTimeoutMs));
      }
    };
    // GraphQL and git over HTTP, under the same outages (their own loops).
    let channels: ChannelLoad | null = null;
    const which = o.channels ?? ['graphql', 'git'];
    if (which.length) {
      work = tempDir('wharf-faults-pgwork-');
      channels = await startChannelLoad(w, token, { channels: which, work, issuesRepo: 'pg-faults', requestTimeoutMs, gitTimeoutMs: requestTimeoutMs * 3 });
    }
    const loops = Promise.all([
      ...Array.from({ length: o.writers ?? 2 }, writer),
      ...Array.from({ length: o.readers ?? 2 }, reader),
    ]);

    // ------------------------------------------------------------ the restarts
    interface Outage { mode: 'immediate' | 'fast'; stopping: number; down: number; starting: number; up: number; readyz: number[] }
    const outages: Outage[] = [];
    await sleep(loadMs);
    for (let i = 0; i < restarts; i++) {
      for (const mode of ['immediate', 'fast'] as const) {
        const t = { mode, stopping: performance.now(), down: 0, starting: 0, up: 0, readyz: [] as number[] };
        await cluster.stop(mode);
        t.down = performance.now();
        // Down for outageMs, and on a slow machine until a few requests were made wholly inside.
        const madeInside = () => samples.filter((s) => s.start >= t.down).length;
        while (performance.now() < t.down + outageMs || (madeInside() < 4 && performance.now() < t.down + outageMs + 20_000)) {
          t.readyz.push((await call(w.base, null, 'GET', '/readyz', undefined, requestTimeoutMs)).status);
          await sleep(100);
        }
        t.starting = performance.now();
        await cluster.start();
        t.up = performance.now();
        outages.push(t);
        progress(`  postgres stopped (-m ${mode}) for ${Math.round(t.starting - t.down)} ms, back after ${Math.round(t.up - t.starting)} ms; ${acked.length} issues acknowledged`);
        await sleep(loadMs);
      }
    }
    stopping = true;
    await loops;
    await channels?.stop();

    // ------------------------------------------------------------ the figures
    fig('Wharf process alive throughout (never restarted)', w.alive() ? 'yes' : `no (exit ${w.child.process.exitCode ?? w.child.process.signalCode})`, w.alive(),
      w.alive() ? undefined : w.child.output().slice(-1500));
    fig('restarts (pg_ctl -m immediate, -m fast)', `${outages.length}; down ${outageMs} ms each`, null);
    const inOutage = (s: { start: number; end: number }) => outages.some((t) => s.start >= t.down && s.end <= t.starting);
    const during = samples.filter(inOutage);
    const notClean = during.filter((s) => s.status !== 503 || !isErrorBody(s.body));
    fig('statuses of requests made while PostgreSQL was down', tally(during.map((s) => s.status || s.error || 0)),
      during.length > 0 && notClean.length === 0,
      during.length === 0 ? 'no request fell inside an outage' : sample(notClean.map((s) => `${s.kind}: ${s.status || s.error} ${JSON.stringify(s.body)?.slice(0, 200)}`)));
    const bad = samples.filter((s) => !(s.status >= 200 && s.status < 300) && s.status !== 503);
    fig('answers other than 2xx or 503 over the whole run (500s, hangs, resets)', `${bad.length} of ${samples.length}`, bad.length === 0,
      sample(bad.map((s) => `${s.kind} at ${Math.round(s.start)} ms: ${s.status || s.error} ${JSON.stringify(s.body)?.slice(0, 200)}`)));
    const outageMsMax = during.length ? Math.max(...during.map((s) => s.end - s.start)) : 0;
    fig('slowest answer while PostgreSQL was down', `${Math.round(outageMsMax)} ms (p50 ${Math.round(percentile(during.map((s) => s.end - s.start), 50))} ms)`,
      during.length > 0 ? outageMsMax < requestTimeoutMs : null);
    const readyz = outages.flatMap((t) => t.readyz);
    fig('/readyz while PostgreSQL was down', tally(readyz), readyz.length > 0 && readyz.every((s) => s === 503));

    const recoveries: string[] = [];
    let worst = 0;
    let unrecovered = 0;
    for (const t of outages) {
      for (const kind of ['write', 'read'] as const) {
        const firstOk = samples.find((s) => s.kind === kind && s.start >= t.up && s.status >= 200 && s.status < 300);
        if (!firstOk) { unrecovered++; recoveries.push(`${t.mode} ${kind}: never`); continue; }
        const ms = firstOk.end - t.up;
        worst = Math.max(worst, ms);
        recoveries.push(`${t.mode} ${kind}: ${Math.round(ms)} ms`);
      }
    }
    fig(`reads and writes succeed again after PostgreSQL is back (limit ${recoverLimitMs / 1000} s)`,
      unrecovered ? `${unrecovered} never` : `worst ${(worst / 1000).toFixed(2)} s`, unrecovered === 0 && worst <= recoverLimitMs, recoveries.join('\n'));
    const failedAfter = outages.map((t) => samples.filter((s) => s.start >= t.up + recoverLimitMs && s.start < t.up + loadMs && s.status !== 201 && s.status !== 200).length)
      .reduce((a, b) => a + b, 0);
    fig('requests failing once recovered (made later than the limit after a start)', String(failedAfter), failedAfter === 0);

    const lost: string[] = [];
    const present = new Map<number, string>();
    try {
      for (let page = 1; ; page++) {
        const items = await callOk(w.base, token, 'GET', `${repo}/issues?state=all&per_page=100&page=${page}`) as unknown as { number: number; title: string }[];
        for (const i of items) present.set(i.number, i.title);
        if (items.length < 100) break;
      }
    } catch (err) {
      fig('acknowledged issue creates lost', 'not known', false, `listing the issues failed: ${(err as Error).message}`);
      return figures;
    }
    for (const a of acked) if (present.get(a.number) !== a.title) lost.push(`#${a.number} "${a.title}": ${present.has(a.number) ? `is "${present.get(a.number)}"` : 'not there'}`);
    fig('acknowledged issue creates lost', `${lost.length} of ${acked.length}`, acked.length > 0 && lost.length === 0,
      acked.length === 0 ? 'no write was acknowledged: the load never ran' : sample(lost));
    fig('requests made (writes / reads)', `${samples.filter((s) => s.kind === 'write').length} / ${samples.filter((s) => s.kind === 'read').length}`, null);
    await channels?.report(fig, inOutage);
    return figures;
  } catch (err) {
    if (wharf) (err as Error).message += `\nlast output of Wharf:\n${wharf.child.output().slice(-3000)}`;
    throw err;
  } finally {
    if (wharf) await wharf.stop();
    await cluster.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (work) fs.rmSync(work, { recursive: true, force: true });
  }
}
