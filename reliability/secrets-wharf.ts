// Wharf as a child process for the secrets and SSRF suites: a fresh data dir (and, on
// PostgreSQL, a fresh schema dropped afterwards), every line it writes kept, and the
// environment of this process stripped of Wharf's own settings so that only the ones
// given here count.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { freePort, startChild, waitForHttp, type Child } from '../bench/children.ts';
import { createSchema, dropSchema, inheritedEnv } from './wharf-env.ts';

export interface WharfOptions {
  /** node's arguments that start Wharf (the bundle, or src/main.ts through tsx). */
  serverArgs: string[];
  cwd: string;
  dialect: 'sqlite' | 'postgres';
  /** PostgreSQL: the database in which a fresh schema is made (and dropped after). */
  databaseUrl?: string;
  /** Wharf's settings on top of the defaults here. */
  env: Record<string, string>;
  /** What the work dir and schema are called after. */
  name: string;
  startTimeoutMs?: number;
}

export interface Wharf {
  base: string;
  adminToken: string;
  dataDir: string;
  schema: string | undefined;
  databaseUrl: string | undefined;
  /** Every line Wharf wrote to stdout and stderr so far. */
  lines(): string[];
  stop(): Promise<void>;
}

export async function startWharf(o: WharfOptions): Promise<Wharf> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `wharf-${o.name}-`));
  const dataDir = path.join(work, 'data');
  const adminToken = `whp_${randomBytes(18).toString('hex')}`;
  let schema: string | undefined;
  if (o.dialect === 'postgres') schema = await createSchema(o.databaseUrl, o.name);
  const port = await freePort();
  const inherited = inheritedEnv();
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    PORT: String(port),
    HOST: '127.0.0.1',
    WHARF_DATA_DIR: dataDir,
    WHARF_ADMIN_TOKEN: adminToken,
    WHARF_SSH_PORT: '0',
    NODE_ENV: process.env.NODE_ENV ?? 'production',
    WHARF_RATE_LIMIT_AUTHENTICATED: '1000000000',
    WHARF_RATE_LIMIT_UNAUTHENTICATED: '1000000000',
    ...(o.dialect === 'postgres' ? { DATABASE_URL: o.databaseUrl, WHARF_DATABASE_SCHEMA: schema } : {}),
    ...o.env,
  };
  const child: Child = startChild(`wharf (${o.name})`, o.serverArgs, { cwd: o.cwd, env });
  const lines: string[] = [];
  let partial = { out: '', err: '' };
  const collect = (which: 'out' | 'err') => (chunk: Buffer) => {
    const text = partial[which] + chunk.toString('utf8');
    const parts = text.split('\n');
    partial = { ...partial, [which]: parts.pop() ?? '' };
    lines.push(...parts);
  };
  child.process.stdout!.on('data', collect('out'));
  child.process.stderr!.on('data', collect('err'));
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(child, `${base}/meta`, o.startTimeoutMs ?? 120_000);
  } catch (err) {
    await child.stop();
    throw err;
  }
  return {
    base, adminToken, dataDir, schema, databaseUrl: o.databaseUrl,
    lines: () => [...lines, ...[partial.out, partial.err].filter(Boolean)],
    async stop() {
      await child.stop();
      fs.rmSync(work, { recursive: true, force: true });
      await dropSchema(o.databaseUrl, schema);
    },
  };
}
