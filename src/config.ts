// The only reader of process.env. Everything else receives a Config.
import path from 'node:path';

export interface RateLimitConfig {
  /** Requests per hour for unauthenticated callers, per client address. */
  unauthenticated: number;
  /** Requests per hour for an authenticated user. */
  authenticated: number;
  /** Requests per hour for an OAuth app identified by client id + secret. */
  oauthApp: number;
  /** Search requests per minute (authenticated / unauthenticated). */
  searchAuthenticated: number;
  searchUnauthenticated: number;
  /** Length of a rate-limit window in seconds. */
  windowSeconds: number;
}

export interface LoginLockoutConfig {
  /** Failed Basic logins for one login within the window that trigger the lockout. */
  maxFailures: number;
  windowSeconds: number;
}

export type MetaRangeName =
  | 'hooks' | 'web' | 'api' | 'git' | 'packages' | 'pages' | 'importer' | 'actions' | 'dependabot';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /**
   * WHARF_DATABASE_SCHEMA: PostgreSQL schema (search_path) to use instead of the
   * connection's default, so several Wharfs (or a test and the CLI it drives) can
   * share one database. Ignored on SQLite.
   */
  databaseSchema: string | null;
  baseUrl: string;
  adminToken: string | null;
  /**
   * WHARF_SECRET_KEY: 32 bytes as base64 or hex, the key that seals stored secrets; null
   * for the key file in the data directory (src/secret-key.ts).
   */
  secretKey: string | null;
  tls: { cert: string; key: string } | null;
  webhookAllowedHosts: string[];
  /**
   * WHARF_WEBHOOK_DNS_SERVERS: DNS servers ("address" or "address:port") that outbound
   * URLs (webhooks, source imports) are resolved through; empty for the system resolver.
   */
  webhookDnsServers: string[];
  webhookRetryBaseMs: number;
  /** Source imports (WHARF_IMPORT_*; see README): large-file threshold, time and size bounds. */
  imports: {
    largeFileBytes: number;
    stepTimeoutSeconds: number;
    maxBytes: number;
    pollMs: number;
  };
  /** Webhook delivery limits and pace (WHARF_WEBHOOK_*; see README). */
  webhookDelivery: {
    maxAttempts: number;
    maxAgeSeconds: number;
    timeoutMs: number;
    concurrency: number;
    pollMs: number;
  };
  logLevel: string;
  /**
   * WHARF_REQUEST_TIMEOUT_SECONDS / WHARF_HEADERS_TIMEOUT_SECONDS: a request whose body
   * (or headers) has not arrived whole by then is cut off, so slow senders cannot hold
   * connections open forever. 0 turns the limit off.
   */
  requestTimeoutSeconds: number;
  headersTimeoutSeconds: number;
  redisUrl: string | null;
  /** Prefix of every Redis key Wharf writes (WHARF_REDIS_PREFIX), to share one Redis. */
  redisPrefix: string;
  rateLimit: RateLimitConfig;
  loginLockout: LoginLockoutConfig;
  /** Address ranges published by GET /meta. */
  metaRanges: Record<MetaRangeName, string[]>;
  /** WHARF_RUNNER_OFFLINE_SECONDS: a runner silent this long shows status offline. */
  runnerOfflineSeconds: number;
  /** The billing plan of accounts the site admin gave none (WHARF_BILLING_*; see README). */
  defaultPlan: BillingPlanConfig;
  /** WHARF_CHECKS_ALLOW_USER_TOKENS: users' tokens (push access) may write check runs and suites, for CI systems without an app. */
  checksAllowUserTokens: boolean;
  /** WHARF_SSH_PORT: git over SSH listens here (on HOST); 0 turns the SSH server off. */
  sshPort: number;
  /**
   * WHARF_METRICS_PORT: GET /metrics is also served here (on HOST, plain HTTP) without
   * authentication, for a scraper on a private network; null (unset or 0) serves it only
   * on PORT, to site admins.
   */
  metricsPort: number | null;
  /**
   * WHARF_SEARCH_TIMEOUT_MS: the time budget of one search; past it a search answers what
   * it found with incomplete_results, or 503 when it found nothing yet (0: always 503).
   */
  searchTimeoutMs: number;
  /**
   * WHARF_BLAME_TIMEOUT_MS: how long git may take over one file's blame (the web blame
   * page); past it git is stopped and the page answers 503.
   */
  blameTimeoutMs: number;
  /**
   * WHARF_RETENTION_DAYS: delivered events (the outbox), finished webhook deliveries with
   * their attempts, and delivered payloads older than this are pruned in the background;
   * 0 keeps them for good.
   */
  retentionDays: number;
  /**
   * WHARF_TRUST_PROXY: addresses or CIDR ranges of the reverse proxies (a load balancer)
   * in front of Wharf, whose X-Forwarded-For and X-Forwarded-Proto are believed; the
   * client address then is the nearest one they name that is not a proxy. Empty: the
   * socket's peer is the client (a proxy's clients would share its rate limit).
   */
  trustProxy: string[];
}

export interface BillingPlanConfig {
  name: string;
  includedMinutes: number;
  includedGigabytesBandwidth: number;
  includedGigabytesStorage: number;
}

export const META_RANGE_NAMES: MetaRangeName[] = [
  'hooks', 'web', 'api', 'git', 'packages', 'pages', 'importer', 'actions', 'dependabot',
];

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  }
  return value;
}

function portNumber(env: Env, name: string, fallback: number): number {
  const value = int(env, name, fallback);
  if (value > 65535) throw new Error(`${name} must be a port number (0 to 65535), got "${env[name]}"`);
  return value;
}

function decimal(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return value;
}

function str(env: Env, name: string): string | null {
  const raw = env[name];
  return raw === undefined || raw === '' ? null : raw;
}

function list(raw: string | null): string[] {
  return raw ? raw.split(',').map((s) => s.trim()).filter(Boolean) : [];
}

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 3000);
  const host = str(env, 'HOST') ?? '127.0.0.1';
  const tlsCert = str(env, 'WHARF_TLS_CERT');
  const tlsKey = str(env, 'WHARF_TLS_KEY');
  if ((tlsCert === null) !== (tlsKey === null)) {
    throw new Error('WHARF_TLS_CERT and WHARF_TLS_KEY must be set together');
  }
  const scheme = tlsCert ? 'https' : 'http';
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const baseUrl = (str(env, 'WHARF_BASE_URL') ?? `${scheme}://${urlHost}:${port}`).replace(/\/+$/, '');

  const metaRanges = {} as Record<MetaRangeName, string[]>;
  for (const name of META_RANGE_NAMES) {
    metaRanges[name] = list(str(env, `WHARF_META_${name.toUpperCase()}`));
  }

  return {
    port,
    host,
    dataDir: path.resolve(str(env, 'WHARF_DATA_DIR') ?? './data'),
    databaseUrl: str(env, 'DATABASE_URL'),
    databaseSchema: str(env, 'WHARF_DATABASE_SCHEMA'),
    baseUrl,
    adminToken: str(env, 'WHARF_ADMIN_TOKEN'),
    secretKey: str(env, 'WHARF_SECRET_KEY'),
    tls: tlsCert && tlsKey ? { cert: tlsCert, key: tlsKey } : null,
    webhookAllowedHosts: list(str(env, 'WHARF_WEBHOOK_ALLOWED_HOSTS')),
    webhookDnsServers: list(str(env, 'WHARF_WEBHOOK_DNS_SERVERS')),
    webhookRetryBaseMs: int(env, 'WHARF_WEBHOOK_RETRY_BASE_MS', 10000),
    imports: {
      largeFileBytes: Math.max(1, int(env, 'WHARF_IMPORT_LARGE_FILE_BYTES', 100 * 1024 * 1024)),
      stepTimeoutSeconds: Math.max(1, int(env, 'WHARF_IMPORT_STEP_TIMEOUT_SECONDS', 3600)),
      maxBytes: Math.max(1, int(env, 'WHARF_IMPORT_MAX_BYTES', 10 * 1024 * 1024 * 1024)),
      pollMs: Math.max(10, int(env, 'WHARF_IMPORT_POLL_MS', 1000)),
    },
    webhookDelivery: {
      maxAttempts: Math.max(1, int(env, 'WHARF_WEBHOOK_MAX_ATTEMPTS', 8)),
      maxAgeSeconds: int(env, 'WHARF_WEBHOOK_MAX_AGE_SECONDS', 86400),
      timeoutMs: Math.max(1, int(env, 'WHARF_WEBHOOK_TIMEOUT_MS', 10000)),
      concurrency: Math.max(1, int(env, 'WHARF_WEBHOOK_CONCURRENCY', 8)),
      pollMs: Math.max(10, int(env, 'WHARF_WEBHOOK_POLL_MS', 1000)),
    },
    logLevel: str(env, 'LOG_LEVEL') ?? 'info',
    requestTimeoutSeconds: int(env, 'WHARF_REQUEST_TIMEOUT_SECONDS', 300),
    headersTimeoutSeconds: int(env, 'WHARF_HEADERS_TIMEOUT_SECONDS', 30),
    redisUrl: str(env, 'REDIS_URL'),
    redisPrefix: str(env, 'WHARF_REDIS_PREFIX') ?? 'wharf:',
    rateLimit: {
      unauthenticated: int(env, 'WHARF_RATE_LIMIT_UNAUTHENTICATED', 60),
      authenticated: int(env, 'WHARF_RATE_LIMIT_AUTHENTICATED', 5000),
      oauthApp: int(env, 'WHARF_RATE_LIMIT_OAUTH_APP', 5000),
      searchAuthenticated: int(env, 'WHARF_RATE_LIMIT_SEARCH_AUTHENTICATED', 30),
      searchUnauthenticated: int(env, 'WHARF_RATE_LIMIT_SEARCH_UNAUTHENTICATED', 10),
      windowSeconds: int(env, 'WHARF_RATE_LIMIT_WINDOW_SECONDS', 3600),
    },
    loginLockout: {
      maxFailures: int(env, 'WHARF_LOGIN_MAX_FAILURES', 10),
      windowSeconds: int(env, 'WHARF_LOGIN_WINDOW_SECONDS', 300),
    },
    metaRanges,
    runnerOfflineSeconds: Math.max(1, int(env, 'WHARF_RUNNER_OFFLINE_SECONDS', 120)),
    // Upstream's search time-out is 10 seconds.
    searchTimeoutMs: int(env, 'WHARF_SEARCH_TIMEOUT_MS', 10000),
    // As long as a search may take: upstream's requests end at 10 seconds.
    blameTimeoutMs: Math.max(1, int(env, 'WHARF_BLAME_TIMEOUT_MS', 10000)),
    retentionDays: int(env, 'WHARF_RETENTION_DAYS', 30),
    trustProxy: list(str(env, 'WHARF_TRUST_PROXY')),
    // Upstream's Free plan figures unless configured.
    defaultPlan: {
      name: str(env, 'WHARF_BILLING_PLAN') ?? 'free',
      includedMinutes: int(env, 'WHARF_BILLING_INCLUDED_MINUTES', 2000),
      includedGigabytesBandwidth: decimal(env, 'WHARF_BILLING_INCLUDED_BANDWIDTH_GB', 1),
      includedGigabytesStorage: decimal(env, 'WHARF_BILLING_INCLUDED_STORAGE_GB', 0.5),
    },
    checksAllowUserTokens: ['1', 'true'].includes((env.WHARF_CHECKS_ALLOW_USER_TOKENS ?? '').toLowerCase()),
    sshPort: portNumber(env, 'WHARF_SSH_PORT', 2222),
    metricsPort: portNumber(env, 'WHARF_METRICS_PORT', 0) || null,
  };
}
