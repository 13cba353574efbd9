// What the fault suites share: Wharf as a child process with a fresh data dir, the
// HTTP calls they make to it (each with a time limit, so a hang is seen as one), a
// user with a token, and the figures' helpers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { freePort, startChild, waitForHttp, type Child } from '../bench/children.ts';
import type { Figure } from './figures.ts';
import { wharfEnv } from './wharf-env.ts';

export const USER_AGENT = 'wharf-reliability/1.0';
export const LOGIN = 'fault-user';

export interface WharfOptions {
  /** node's arguments that start Wharf (the bundle, or src/main.ts through tsx). */
  serverArgs: string[];
  /** The working directory of Wharf's process (the repository root). */
  cwd: string;
  /** How long the server may take to answer after a start, ms. */
  startTimeoutMs?: number;
}

export interface Wharf {
  base: string;
  adminToken: string;
  dataDir: string;
  child: Child;
  alive(): boolean;
  stop(): Promise<void>;
}

/** Starts Wharf on dataDir (SQLite), or on PostgreSQL with databaseUrl, with the extra environment. */
export async function startWharf(o: WharfOptions, dataDir: string, extra: NodeJS.ProcessEnv = {}): Promise<Wharf> {
  const port = await freePort();
  const adminToken = `whp_${randomBytes(18).toString('hex')}`;
  const child = startChild(`wharf (faults, port ${port})`, o.serverArgs, {
    cwd: o.cwd,
    env: { ...wharfEnv(port, dataDir, adminToken), ...extra },
  });
  // RELIABILITY_FAULTS_LOG=<file>: all of Wharf's output there (the errors behind a MISS).
  const logFile = process.env.RELIABILITY_FAULTS_LOG;
  if (logFile) {
    const append = (chunk: Buffer) => fs.appendFileSync(logFile, chunk);
    child.process.stdout!.on('data', append);
    child.process.stderr!.on('data', append);
  }
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(child, `${base}/meta`, o.startTimeoutMs ?? 120_000);
  return {
    base, adminToken, dataDir, child,
    alive: () => child.process.exitCode === null && child.process.signalCode === null,
    stop: () => child.stop(5000),
  };
}

/** The environment cannot give a part what it needs (a mount, a PostgreSQL cluster): skipped, not failed. */
export class FaultSetupUnavailable extends Error {}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

// ---------------------------------------------------------------- HTTP

export interface Answer {
  /** The status, or 0 when no answer came (refused, reset, or timed out: see error). */
  status: number;
  json: unknown;
  ms: number;
  error?: string;
}

export async function call(base: string, token: string | null, method: string, pathname: string, body?: unknown, timeoutMs = 15_000): Promise<Answer> {
  const t0 = performance.now();
  try {
    const res = await fetch(`${base}${pathname}`, {
      method,
      headers: {
        'user-agent': USER_AGENT, accept: 'application/vnd.github+json',
        ...(token ? { authorization: `token ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let json: unknown = null;
    try { json = text ? JSON.parse(text) : null; } catch { json = text; }
    return { status: res.status, json, ms: performance.now() - t0 };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError';
    return { status: 0, json: null, ms: performance.now() - t0, error: timedOut ? `no answer within ${timeoutMs} ms` : (e.cause?.code ?? e.message) };
  }
}

export async function callOk(base: string, token: string, method: string, pathname: string, body?: unknown): Promise<Record<string, unknown>> {
  const a = await call(base, token, method, pathname, body, 60_000);
  if (a.status < 200 || a.status >= 300) throw new Error(`${method} ${pathname}: ${a.status || a.error} ${JSON.stringify(a.json)}`);
  return a.json as Record<string, unknown>;
}

/** A user (LOGIN) with a token of the scopes the suites use. */
export async function makeUser(w: Wharf): Promise<string> {
  await callOk(w.base, w.adminToken, 'POST', '/admin/users', { login: LOGIN, email: `${LOGIN}@example.com` });
  const auth = await callOk(w.base, w.adminToken, 'POST', `/admin/users/${LOGIN}/authorizations`, { scopes: ['repo', 'user', 'admin:repo_hook'] });
  return String(auth.token);
}

/** Is the body the spec's error body ({message, documentation_url})? */
export function isErrorBody(json: unknown): boolean {
  const b = json as { message?: unknown; documentation_url?: unknown } | null;
  return typeof b?.message === 'string' && typeof b.documentation_url === 'string';
}

// ---------------------------------------------------------------- figures

export type AddFigure = (name: string, value: string, pass: boolean | null, detail?: string) => void;

export function figureSink(suite: string, figures: Figure[]): AddFigure {
  return (name, value, pass, detail) => { figures.push({ suite, name, value, pass, detail }); };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function sample(items: readonly string[], max = 5): string {
  return items.slice(0, max).join('\n') + (items.length > max ? `\n… and ${items.length - max} more` : '');
}

/** Counts per key, as "503×12, 0×1". */
export function tally(statuses: readonly (number | string)[]): string {
  const counts = new Map<string, number>();
  for (const s of statuses) counts.set(String(s), (counts.get(String(s)) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k}×${n}`).join(', ') || 'none';
}

export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}
