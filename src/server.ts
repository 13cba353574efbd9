// A whole Wharf: database open and migrated, first-start setup done, app built.
// main.ts listens with it; tests start one per suite on an ephemeral port.
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp, type AppOptions } from './app.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { openDatabase, type DatabaseHandle } from './db/database.ts';
import { migrateToLatest } from './db/migrations/index.ts';
import { nowIso, systemClock, type Clock } from './domain/clock.ts';
import { DeliveryWorker } from './modules/hooks/hooks.delivery-worker.ts';
import { firstStart } from './first-start.ts';
import { SearchIndexWorker } from './modules/search/search-index.worker.ts';
import { MigrationExportWorker } from './modules/org-migrations/migrations.worker.ts';
import { MigrationImportWorker } from './modules/migration-import/import.worker.ts';
import { ImportWorker } from './modules/imports/imports.worker.ts';
import { AutoMergeWorker } from './modules/pulls/auto-merge.worker.ts';
import { RetentionWorker } from './modules/retention/retention.worker.ts';
import { startPushReconciler, type PushReconciler } from './modules/git-http/git-http.reconcile.ts';
import { startSshServer, type SshServer } from './modules/git-ssh/git-ssh.server.ts';
import { wireModules } from './modules/wiring.ts';
import { setBlameTimeout } from './git/blame.ts';
import { closeAllCatFiles } from './git/cat-file.ts';
import { loadSecretBox, verifySecretKey } from './secret-key.ts';
import { Urls } from './urls.ts';

export interface Server {
  app: FastifyInstance;
  ctx: AppContext;
  database: DatabaseHandle;
  /** Delivers webhooks; runs from creation until close(). */
  webhooks: DeliveryWorker;
  /** Keeps the search index current; runs from creation until close(). */
  searchIndex: SearchIndexWorker;
  /** Writes organization and user migration archives; runs from creation until close(). */
  migrationExports: MigrationExportWorker;
  /** Loads migration archives queued by site admins; runs from creation until close(). */
  migrationImports: MigrationImportWorker;
  /** The port git over SSH listens on from creation until close(); null when SSH is off. */
  sshPort: number | null;
  /** Runs source imports; runs from creation until close(). */
  imports: ImportWorker;
  /** Merges pull requests whose auto-merge waited on protection; runs from creation until close(). */
  autoMerges: AutoMergeWorker;
  /** Prunes what is older than WHARF_RETENTION_DAYS, hourly; runs from creation until close(). */
  retention: RetentionWorker;
  close(): Promise<void>;
}

export interface ServerOptions extends AppOptions {
  clock?: Clock;
  pgSchema?: string;
  /**
   * Listen for git over SSH on this port instead of WHARF_SSH_PORT's, 0 letting the OS
   * choose (tests, which run many servers at once: read the port back from sshPort).
   */
  sshListenPort?: number;
}

export async function createServer(config: Config, options: ServerOptions = {}): Promise<Server> {
  const log = pino({ level: options.logger === false ? 'silent' : config.logLevel });
  setBlameTimeout(config.blameTimeoutMs);
  const database = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pgSchema: options.pgSchema ?? config.databaseSchema ?? undefined, log });
  let pushes: PushReconciler | undefined;
  let ssh: SshServer | undefined;
  try {
    await migrateToLatest(database.db, database.dialect, database.schema);
    const clock = options.clock ?? systemClock;
    const secrets = loadSecretBox(config);
    await verifySecretKey(database.db, secrets, nowIso(clock));
    const ctx: AppContext = {
      config, db: database.db, dialect: database.dialect, clock,
      urls: new Urls(config.baseUrl, config.sshPort), log, bus: wireModules(), secrets,
    };
    await firstStart(ctx);
    // Before listening: pushes a dead process left unrecorded are recorded first.
    pushes = await startPushReconciler(ctx);
    const app = await buildApp(ctx, { ...options, databaseGeneration: database.generation });
    const d = config.webhookDelivery;
    const webhooks = new DeliveryWorker(ctx, {
      allowedHosts: config.webhookAllowedHosts, retryBaseMs: config.webhookRetryBaseMs, maxAttempts: d.maxAttempts,
      maxAgeMs: d.maxAgeSeconds * 1000, timeoutMs: d.timeoutMs, concurrency: d.concurrency, pollMs: d.pollMs,
    });
    webhooks.start();
    const searchIndex = new SearchIndexWorker(ctx, d.pollMs);
    searchIndex.start();
    const migrationExports = new MigrationExportWorker(ctx, d.pollMs);
    migrationExports.start();
    const migrationImports = new MigrationImportWorker(ctx, d.pollMs);
    migrationImports.start();
    const imports = new ImportWorker(ctx);
    imports.start();
    const autoMerges = new AutoMergeWorker(ctx, d.pollMs);
    autoMerges.start();
    const retention = new RetentionWorker(ctx);
    retention.start();
    const sshPort = options.sshListenPort ?? (config.sshPort === 0 ? null : config.sshPort);
    if (sshPort !== null) {
      ssh = await startSshServer(ctx, sshPort, config.host).catch(async (err: unknown) => {
        await imports.stop();
        await autoMerges.stop();
        await webhooks.stop();
        await searchIndex.stop();
        await migrationExports.stop();
        await migrationImports.stop();
        await retention.stop();
        throw err;
      });
      // ssh_url names the port bound (the OS's choice when asked for 0).
      ctx.urls.sshPort = ssh.port;
    }
    return {
      app, ctx, database, webhooks, searchIndex, migrationExports, migrationImports, imports, autoMerges, retention, sshPort: ssh?.port ?? null,
      async close() {
        // First: git runs still going are ended and their pushes recorded while the database is open.
        await ssh?.close();
        await app.close();
        // After the HTTP side: requests still finishing may queue events; the worker
        // lets its requests in flight finish and hands back the rest for the next start.
        // Imports first: their tools stop and their leases are given back for the next start.
        await imports.stop();
        // Before the webhooks: a merge under way records its events first.
        await autoMerges.stop();
        await webhooks.stop();
        await searchIndex.stop();
        await migrationExports.stop();
        await migrationImports.stop();
        await retention.stop();
        await pushes?.stop();
        closeAllCatFiles();
        await database.close();
      },
    };
  } catch (err) {
    await pushes?.stop();
    await database.close();
    throw err;
  }
}
