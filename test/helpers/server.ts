// Starts a real Wharf on an ephemeral port with a fresh data dir (and, when
// WHARF_TEST_DIALECT=postgres, a PostgreSQL schema of its own: one a finished test process
// left, emptied, when there is one; see pg-schemas.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Octokit } from '@octokit/rest';
import { loadConfig, type Config } from '../../src/config.ts';
import { createServer, type Server } from '../../src/server.ts';
import type { Clock } from '../../src/domain/clock.ts';
import { SecretKeyError } from '../../src/domain/secret-box.ts';
import { reusableSchema } from './pg-schemas.ts';

export const ADMIN_TOKEN = 'whp_testadmintoken000000000000000000000';
export const USER_AGENT = 'wharf-tests/1.0';

export interface TestServer {
  baseUrl: string;
  dataDir: string;
  pgSchema: string | undefined;
  server: Server;
  config: Config;
  /** An Octokit client for the token (anonymous without one). */
  octokit(token?: string): Octokit;
  /** fetch against the server with a User-Agent set; `token` adds Authorization. */
  request(pathname: string, init?: RequestInit & { token?: string; json?: unknown }): Promise<Response>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  env?: Record<string, string>;
  clock?: Clock;
  /** Share another test server's data dir and database (as a second process would). */
  shareWith?: TestServer;
  /** Serve git over SSH on a port the OS chooses (server.sshPort); off otherwise, so parallel files never fight over one port. */
  ssh?: boolean;
  /** The database to run on [WHARF_TEST_DIALECT]. */
  dialect?: 'sqlite' | 'postgres';
  /** PostgreSQL: the server's URL [WHARF_TEST_DATABASE_URL]. */
  databaseUrl?: string;
  /**
   * PostgreSQL: a new schema, after close kept as the test left it (true) or dropped (false).
   * Unset: reused, emptied, by a later test process (pg-schemas.ts) where that is possible,
   * else new and dropped on close (kept under WHARF_TEST_KEEP_SCHEMAS).
   */
  keepSchema?: boolean;
}

export function testDialect(): 'sqlite' | 'postgres' {
  return process.env.WHARF_TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite';
}

export async function createPgSchema(url: string): Promise<string> {
  const schema = `wharf_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.end();
  return schema;
}

export async function dropPgSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const shared = options.shareWith;
  const dataDir = shared?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-test-'));
  const dialect = options.dialect ?? testDialect();
  const pgUrl = dialect === 'postgres' ? options.databaseUrl ?? process.env.WHARF_TEST_DATABASE_URL : undefined;
  if (dialect === 'postgres' && !pgUrl) throw new Error('WHARF_TEST_DATABASE_URL is required for postgres tests');
  // A reused schema stays this process's until it ends, then another process empties it and takes it.
  let reused = !shared && pgUrl && options.keepSchema === undefined ? await reusableSchema(pgUrl) : null;
  let pgSchema = shared ? shared.pgSchema : reused ?? (pgUrl ? await createPgSchema(pgUrl) : undefined);
  const env: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    WHARF_DATA_DIR: dataDir,
    WHARF_ADMIN_TOKEN: ADMIN_TOKEN,
    LOG_LEVEL: 'silent',
    WHARF_SSH_PORT: '0',
    ...(pgUrl ? { DATABASE_URL: pgUrl } : {}),
    ...options.env,
  };
  // The base URL is only known after listening; a placeholder is replaced below.
  const config = loadConfig({ ...env, WHARF_BASE_URL: env.WHARF_BASE_URL ?? 'http://127.0.0.1:1' });
  const start = () => createServer(config, { logger: false, clock: options.clock, pgSchema, ...(options.ssh ? { sshListenPort: 0 } : {}) });
  const server = await start().catch(async (err: unknown) => {
    // In the full PostgreSQL pass, health.test.ts's first server has twice found its schema,
    // taken from the pool and emptied, holding another server's secret key check (not seen
    // with the file alone; the writer is not found yet). The server's refusal is right; the
    // test goes on in a schema of its own, and says so, rather than fail on the pool's account.
    if (!(err instanceof SecretKeyError) || !reused || !pgUrl) throw err;
    console.error(`test server: the pooled schema ${reused} held another server's secret key check; starting in a new schema`);
    reused = null;
    pgSchema = await createPgSchema(pgUrl);
    return start();
  }).catch((err: unknown) => {
    if (err instanceof Error && pgSchema) err.message += ` [schema ${pgSchema}: ${shared ? 'shared' : reused ? 'taken from the pool, emptied' : 'new'}]`;
    throw err;
  });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const baseUrl = `http://127.0.0.1:${port}`;
  if (!options.env?.WHARF_BASE_URL) {
    config.baseUrl = baseUrl;
    (server.ctx.urls as { base: string }).base = baseUrl;
  }
  return {
    baseUrl,
    dataDir,
    pgSchema,
    server,
    config,
    octokit: (token?: string) => new Octokit({ baseUrl, userAgent: USER_AGENT, ...(token ? { auth: token } : {}) }),
    request: (pathname, init = {}) => {
      const { token, json, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (!headers.has('user-agent')) headers.set('user-agent', USER_AGENT);
      if (token) headers.set('authorization', `token ${token}`);
      if (json !== undefined) headers.set('content-type', 'application/json');
      return fetch(`${baseUrl}${pathname}`, { ...rest, headers, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) });
    },
    async close() {
      await server.close();
      if (shared) return; // the owner of the data removes it
      fs.rmSync(dataDir, { recursive: true, force: true });
      // Under scripts/test.mjs the run's database is dropped whole at the end (see there).
      const drop = options.keepSchema === undefined ? !reused && !process.env.WHARF_TEST_KEEP_SCHEMAS : !options.keepSchema;
      if (pgUrl && pgSchema && drop) await dropPgSchema(pgUrl, pgSchema);
    },
  };
}

/** A clock tests can move forward. */
export class TestClock implements Clock {
  private t: number;
  constructor(start = Date.parse('2026-01-01T00:00:00Z')) { this.t = start; }
  now(): Date { return new Date(this.t); }
  advance(ms: number): void { this.t += ms; }
}
