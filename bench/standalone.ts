// A Wharf of its own for a scenario run alone (`node --import tsx bench/<scenario>.ts`):
// a fresh data dir on SQLite (or BENCH_DATABASE_URL), rate limits out of the way,
// NODE_ENV=production as `npm start` runs it, and a user `bench-user` with a token.
// BENCH_PROFILE=1 runs it under --cpu-prof; finish() then prints where its time went.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { freePort, onExit, startChild, stopAll, waitForHttp, wharfArgs } from './children.ts';
import { summarizeProfile } from './profile.ts';

export interface StandaloneWharf {
  base: string;
  token: string;
  login: string;
  /** Stops Wharf (printing the profile when one was taken) and removes its data. */
  finish(): Promise<void>;
}

function adminPost(base: string, token: string, pathname: string, body: unknown): Promise<Response> {
  return fetch(`${base}${pathname}`, {
    method: 'POST', body: JSON.stringify(body),
    headers: { 'user-agent': 'wharf-bench/1.0', authorization: `token ${token}`, 'content-type': 'application/json' },
  });
}

export async function startStandaloneWharf(label: string): Promise<StandaloneWharf> {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `wharf-bench-${label}-`));
  onExit(() => fs.rmSync(work, { recursive: true, force: true }));
  const adminToken = `whp_${randomBytes(18).toString('hex')}`;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(DATABASE_URL|REDIS_URL|WHARF_|PORT$|HOST$|LOG_LEVEL$)/.test(k)) env[k] = v;
  const profileDir = process.env.BENCH_PROFILE === '1' ? fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-profile-')) : null;
  const wharf = startChild('wharf', [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), ...wharfArgs(root)], {
    cwd: root,
    env: {
      NODE_ENV: 'production',
      ...env, PORT: String(port), HOST: '127.0.0.1', WHARF_DATA_DIR: path.join(work, 'data'), WHARF_ADMIN_TOKEN: adminToken, WHARF_SSH_PORT: '0',
      LOG_LEVEL: 'warn', WHARF_RATE_LIMIT_AUTHENTICATED: '1000000000', WHARF_RATE_LIMIT_UNAUTHENTICATED: '1000000000',
      ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
    },
  });
  const finish = async () => {
    try {
      if (profileDir) {
        await wharf.stop(30_000);
        const main = fs.readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile') && f.split('.')[4] === '0');
        if (main[0]) console.log(summarizeProfile(path.join(profileDir, main[0])));
      }
    } finally {
      await stopAll();
      fs.rmSync(work, { recursive: true, force: true });
    }
  };
  try {
    await waitForHttp(wharf, `${base}/meta`);
    const login = 'bench-user';
    await adminPost(base, adminToken, '/admin/users', { login, email: `${login}@example.com` });
    const auth = (await (await adminPost(base, adminToken, `/admin/users/${login}/authorizations`, { scopes: ['user', 'repo'] })).json()) as { token: string };
    return { base, token: auth.token, login, finish };
  } catch (err) {
    await finish();
    throw err;
  }
}
