// A private PostgreSQL cluster for the fault suite, so that it can be stopped and
// started without touching the machine's shared server (other tests use it at the
// same time): initdb into a temp dir, trust auth, on a free port of 127.0.0.1. As
// root, every program runs as the `postgres` OS user (postgres refuses to run as root).
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, onExit } from '../bench/children.ts';

export interface PgCluster {
  url: string;
  port: number;
  /** `immediate` is a crash (no shutdown checkpoint, recovery at start); `fast` a clean stop. */
  stop(mode: 'immediate' | 'fast'): Promise<void>;
  start(): Promise<void>;
  /** Stops the cluster and removes its files. */
  destroy(): Promise<void>;
}

/** Where the PostgreSQL server programs are, or null when there are none. */
export function findPgBin(): string | null {
  const fromEnv = process.env.RELIABILITY_PG_BIN;
  if (fromEnv) return fs.existsSync(path.join(fromEnv, 'initdb')) ? fromEnv : null;
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0]!, 'bin') : null;
}

function run(file: string, args: string[], asPostgres: boolean, timeoutMs = 120_000): Promise<string> {
  const [cmd, argv] = asPostgres ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
  return new Promise((resolve, reject) => {
    execFile(cmd, argv, { timeout: timeoutMs, encoding: 'utf8', cwd: '/' }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${file} ${args.join(' ')}: ${err.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/** Makes and starts a cluster; throws (with why) where that cannot be done. */
export async function startPgCluster(bin: string): Promise<PgCluster> {
  const asPostgres = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-faults-pg-'));
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'log');
  if (asPostgres) {
    const { uid, gid } = postgresIds();
    fs.chownSync(dir, uid, gid);
  }
  let started = false;
  const pgCtl = path.join(bin, 'pg_ctl');
  const port = await freePort();
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c max_connections=50`;
  const cluster: PgCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async start() {
      await run(pgCtl, ['-D', data, '-l', log, '-o', options, '-w', '-t', '60', 'start'], asPostgres);
      started = true;
    },
    async stop(mode) {
      await run(pgCtl, ['-D', data, '-m', mode, '-w', '-t', '60', 'stop'], asPostgres);
      started = false;
    },
    async destroy() {
      if (started) await cluster.stop('immediate').catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  // However this process ends, the cluster goes with it.
  onExit(() => {
    if (!started) return;
    const args = [pgCtl, '-D', data, '-m', 'immediate', 'stop'];
    spawnSync(asPostgres ? 'runuser' : args[0]!, asPostgres ? ['-u', 'postgres', '--', ...args] : args.slice(1), { stdio: 'ignore', timeout: 30_000 });
    fs.rmSync(dir, { recursive: true, force: true });
  });
  await run(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'], asPostgres);
  await cluster.start();
  return cluster;
}

function postgresIds(): { uid: number; gid: number } {
  const line = fs.readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('there is no postgres OS user to run PostgreSQL as (it refuses to run as root)');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}
