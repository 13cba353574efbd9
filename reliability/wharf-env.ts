// What every reliability suite needs to run Wharf as a child process: this process's
// environment without Wharf's own settings (so none leak in from the shell), and a
// fresh PostgreSQL schema per run, dropped afterwards unless RELIABILITY_KEEP is set.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const WHARF_OWN = /^(DATABASE_URL|REDIS_URL|WHARF_|PORT$|HOST$|LOG_LEVEL$|NODE_OPTIONS$)/;

/** process.env without the variables Wharf reads; the suite sets those it wants. */
export function inheritedEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!WHARF_OWN.test(k)) env[k] = v;
  return env;
}

/**
 * A suite's Wharf on 127.0.0.1:port with its own data dir and admin token: no SSH, warnings
 * only, no rate limit in the way of the load, webhooks allowed to the receivers here.
 */
export function wharfEnv(port: number, dataDir: string, adminToken: string): NodeJS.ProcessEnv {
  return {
    ...inheritedEnv(),
    PORT: String(port),
    HOST: '127.0.0.1',
    WHARF_DATA_DIR: dataDir,
    WHARF_ADMIN_TOKEN: adminToken,
    WHARF_SSH_PORT: '0',
    LOG_LEVEL: 'warn',
    NODE_ENV: process.env.NODE_ENV ?? 'production',
    WHARF_RATE_LIMIT_AUTHENTICATED: '1000000000',
    WHARF_RATE_LIMIT_UNAUTHENTICATED: '1000000000',
    WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  };
}

async function withClient(url: string, fn: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await fn(client);
  } finally {
    await client.end();
  }
}

/** Makes schema `wharf_<name>_<random>` in the database at url; its name. */
export async function createSchema(url: string | undefined, name: string): Promise<string> {
  if (!url) throw new Error('the postgres dialect needs a database URL');
  const schema = `wharf_${name}_${randomBytes(6).toString('hex')}`;
  await withClient(url, (c) => c.query(`CREATE SCHEMA ${schema}`));
  return schema;
}

/** Drops the schema, unless RELIABILITY_KEEP asks to keep it for a look after a MISS. */
export async function dropSchema(url: string | undefined, schema: string | undefined): Promise<void> {
  if (!url || !schema || process.env.RELIABILITY_KEEP) return;
  await withClient(url, (c) => c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
}
