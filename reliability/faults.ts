// The faults suite (issue #22 § 1): Wharf as a real child process while what it stands
// on fails, and comes back without Wharf being restarted.
//   - faults-postgres.ts: PostgreSQL (a private cluster) restarted under load, crash
//     and clean stop: 503s in the spec's body while it is down, no hang, no crash,
//     recovery within seconds, no acknowledged write lost; GraphQL and git over HTTP
//     under the same outages (faults-pg-channels.ts)
//   - faults-disk.ts: the data dir's disk full (a small tmpfs) under issue creates,
//     contents API writes and git pushes: clean 507s, no corruption (integrity_check,
//     git fsck), recovery once space returns
//   - faults-webhooks.ts: receivers that hang, reset or answer slowly: the healthy
//     one's deliveries on time, failures recorded with their reason and retried per
//     policy, the request path unaffected
// Per dialect: on SQLite the disk part (database and repositories on the small disk)
// and the webhook part; on PostgreSQL the restart part and the disk part (repositories
// only on the small disk; the database is the given one, in a fresh schema). A part
// that cannot run here (no PostgreSQL programs, not root for mount) is reported as
// skipped with the reason, not failed.
import type { Figure } from './figures.ts';
import { FaultSetupUnavailable } from './faults-common.ts';
import { runDiskFaults, diskFaultSkipReason, type DiskFaultOptions } from './faults-disk.ts';
import { postgresFaultSkipReason, runPostgresFaults, type PostgresFaultOptions } from './faults-postgres.ts';
import { runWebhookFaults, type WebhookFaultOptions } from './faults-webhooks.ts';

export type FaultPart = 'postgres-restart' | 'disk' | 'webhooks';
export const FAULT_PARTS: readonly FaultPart[] = ['postgres-restart', 'disk', 'webhooks'];

export interface FaultsOptions {
  /** node's arguments that start Wharf (the bundle, or src/main.ts through tsx). */
  serverArgs: string[];
  /** The working directory of Wharf's process (the repository root). */
  cwd: string;
  dialect: 'sqlite' | 'postgres';
  /** PostgreSQL (the disk part): the database in which a fresh schema is made (and dropped after). */
  databaseUrl?: string;
  /** The parts to run, of those that belong to the dialect [all]. */
  parts?: readonly FaultPart[];
  /** Settings of each part (their defaults are the full profile's). */
  postgres?: Partial<PostgresFaultOptions>;
  disk?: Partial<DiskFaultOptions>;
  webhooks?: Partial<WebhookFaultOptions>;
  progress?: (line: string) => void;
}

/** The parts that run on a dialect: see the header. */
export function partsFor(dialect: 'sqlite' | 'postgres'): FaultPart[] {
  return dialect === 'sqlite' ? ['disk', 'webhooks'] : ['postgres-restart', 'disk'];
}

export async function runFaults(o: FaultsOptions): Promise<{ figures: Figure[] }> {
  const figures: Figure[] = [];
  const parts = partsFor(o.dialect).filter((p) => !o.parts || o.parts.includes(p));
  const base = { serverArgs: o.serverArgs, cwd: o.cwd, progress: o.progress };
  const skipped = (suite: string, reason: string) => figures.push({ suite, name: 'skipped', value: 'not run here', pass: null, detail: reason });
  const failed = (suite: string, err: unknown) => (err instanceof FaultSetupUnavailable ? skipped(suite, err.message) : figures.push({
    suite, name: 'suite ran to the end', value: 'no', pass: false, detail: err instanceof Error ? err.message : String(err),
  }));
  for (const part of parts) {
    const started = Date.now();
    const before = figures.length;
    await runPart(part);
    const suite = figures[before]?.suite;
    if (suite) figures.push({ suite, name: 'seconds the part took', value: ((Date.now() - started) / 1000).toFixed(1), pass: null });
  }
  return { figures };

  async function runPart(part: FaultPart): Promise<void> {
    if (part === 'postgres-restart') {
      const suite = 'faults: postgres restart';
      const why = postgresFaultSkipReason();
      if (why) { skipped(suite, why); return; }
      try { figures.push(...await runPostgresFaults({ ...base, ...o.postgres })); } catch (err) { failed(suite, err); }
    } else if (part === 'disk') {
      const suite = `faults: disk full (${o.dialect})`;
      const why = diskFaultSkipReason();
      if (why) { skipped(suite, why); return; }
      try { figures.push(...await runDiskFaults({ ...base, dialect: o.dialect, databaseUrl: o.databaseUrl, ...o.disk })); } catch (err) { failed(suite, err); }
    } else {
      try { figures.push(...await runWebhookFaults({ ...base, ...o.webhooks })); } catch (err) { failed('faults: webhook receivers', err); }
    }
  }
}
