// The CLI's way into Wharf: the same configuration, database and migrations as the
// server (src/server.ts), without the HTTP layer. The operator holds the database,
// so commands call services directly, with no actor and no permission checks.
import pino from 'pino';
import type { Config } from '../src/config.ts';
import type { AppContext } from '../src/context.ts';
import { openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrations/index.ts';
import { nowIso, systemClock } from '../src/domain/clock.ts';
import { firstStart } from '../src/first-start.ts';
import { wireModules } from '../src/modules/wiring.ts';
import { loadSecretBox, verifySecretKey } from '../src/secret-key.ts';
import { Urls } from '../src/urls.ts';

export interface CliContext {
  config: Config;
  app: AppContext;
  database: DatabaseHandle;
  close(): Promise<void>;
}

export interface OpenOptions {
  /**
   * Also do the server's once-per-data-dir work. Without it, a user created here
   * on a fresh data dir would make the server skip the WHARF_ADMIN_TOKEN admin.
   */
  firstStart: boolean;
}

export async function openCliContext(config: Config, options: OpenOptions): Promise<CliContext> {
  const database = openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    pgSchema: config.databaseSchema ?? undefined,
  });
  try {
    await migrateToLatest(database.db, database.dialect, database.schema);
    const secrets = loadSecretBox(config);
    await verifySecretKey(database.db, secrets, nowIso(systemClock));
    // Logs go to stderr: stdout carries only what a script may capture.
    const log = pino({ level: config.logLevel }, pino.destination(2));
    const app: AppContext = {
      config, db: database.db, dialect: database.dialect, clock: systemClock, urls: new Urls(config.baseUrl, config.sshPort), log,
      bus: wireModules(), secrets,
    };
    if (options.firstStart) await firstStart(app);
    return { config, app, database, close: () => database.close() };
  } catch (err) {
    await database.close();
    throw err;
  }
}

/**
 * For commands with setup 'none' (backup, restore): the configuration alone, no database
 * opened; reaching for app or database is a bug in the command.
 */
export function configOnlyContext(config: Config): CliContext {
  const opened = (): never => { throw new Error('this command opens no database (setup: none)'); };
  return { config, get app() { return opened(); }, get database() { return opened(); }, close: async () => {} };
}
