// Protected branches on git pushes: receive-pack runs Wharf's pre-receive hook
// (hooks/pre-receive.mjs, through core.hooksPath given in the environment, so no
// repository directory is touched) with the rules that apply to the one pushing. The
// hook sees the pushed objects in git's quarantine, so force pushes, merge commits and
// unsigned commits are judged on what was sent; declining rejects the whole push.
//
// Whether a commit's signature is verified needs the database (registered keys,
// verified addresses), which the hook has not: when a rule requires signatures, the
// process that starts receive-pack opens a signature channel for that push only, a
// Unix socket in a fresh private (0700) directory plus a random secret, both handed to
// the hook in its environment. The hook sends the raw commit objects it needs judged
// and gets a verdict for each from the verifier given here (the API's own commit
// verification). A socket, not an HTTP route: it reaches the very process that
// spawned git (whatever the deployment runs beside it), is unreachable from the
// network, and needs no place in the public route table; it is closed with the push.
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * One check of what a push brings, as a ruleset's push-content rules say (the hook
 * reads the new commits and their changed files in git's quarantine): a pattern a
 * commit's message or author or committer email, or a new branch's or tag's name,
 * must (or, negated, must not) match; paths that may not be changed; the longest
 * path, the extensions refused, the largest file. `says` is the rule's line in the
 * refusal (upstream's GH013 list).
 */
export type ContentCheck =
  | {
    kind: 'pattern';
    on: 'message' | 'author_email' | 'committer_email' | 'branch_name' | 'tag_name';
    operator: 'starts_with' | 'ends_with' | 'contains' | 'regex';
    pattern: string;
    negate: boolean;
    says: string;
  }
  /** `matches`: regular expression sources of the restricted paths. */
  | { kind: 'path'; matches: string[]; says: string }
  | { kind: 'path_length'; max: number; says: string }
  /** `extensions`: lower-case suffixes with their dot (".exe"). */
  | { kind: 'extension'; extensions: string[]; says: string }
  | { kind: 'file_size'; maxBytes: number; says: string };

/** One rule as the hook applies it, already resolved for the pusher. */
export interface PushRule {
  /** The rule's name or pattern, for messages. */
  pattern: string;
  /** Branch names it covers (without refs/heads/), as a regular expression source. */
  matches: string;
  /** The pusher may not update the branch at all: upstream's message why. */
  deny: string | null;
  allowForcePushes: boolean;
  allowDeletions: boolean;
  requireSignatures: boolean;
  requireLinearHistory: boolean;
  /**
   * Set when the pusher bypasses parts of this classic rule (an administrator where it
   * does not enforce admins): what those parts would refuse is still judged, the push
   * is accepted, and the hook lists each bypassed violation (upstream's "Bypassed rule
   * violations" notice) so the pusher knows what they went around.
   */
  bypassed?: ClassicBypass;
  /**
   * Set for a repository ruleset's rules: `matches` then covers full ref names (tags
   * too), the rule applies beside the branch's classic rule and every other ruleset,
   * and a push it refuses is upstream's GH013 listing each violated rule.
   */
  ruleset?: {
    blockCreations: boolean;
    blockUpdates: boolean;
    /** What it refuses whatever is pushed (a pull request is required, checks are expected). */
    violations: string[];
    /** What it checks in the commits, files and names pushed. */
    content: ContentCheck[];
    /** Where the repository's rules are shown (the message's link). */
    rulesUrl: string;
    /** The pusher is a bypass actor: what it breaks is listed as bypassed, never refused. */
    bypassed?: boolean;
  };
}

/** The parts of a classic rule an administrator bypasses, as they would bind anyone else. */
export interface ClassicBypass {
  /** What it refuses whatever is pushed (restrictions, a pull request, expected checks). */
  violations: string[];
  requireSignatures: boolean;
  requireLinearHistory: boolean;
}

const HOOKS_DIR = fileURLToPath(new URL('./hooks', import.meta.url));

/**
 * Environment for git http-backend that makes receive-pack apply `rules` (in priority
 * order: the hook takes the first that matches a branch). Empty without rules.
 */
export function protectedPushEnv(rules: readonly PushRule[], signatures?: SignatureChannel): Record<string, string> {
  if (rules.length === 0) return {};
  return {
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'core.hooksPath',
    GIT_CONFIG_VALUE_0: HOOKS_DIR,
    WHARF_NODE: process.execPath,
    WHARF_PUSH_RULES: JSON.stringify(rules),
    // Without a channel the hook declines every commit a rule needs signed.
    ...(signatures ? signatures.env : {}),
  };
}

/** Whether one raw commit object (as `git cat-file commit` prints it) carries a verified signature. */
export type CommitVerifier = (raw: Buffer) => Promise<boolean>;

/** A push's signature channel: the hook's environment for it, and its end. */
export interface SignatureChannel {
  env: { WHARF_SIGNATURES_SOCKET: string; WHARF_SIGNATURES_SECRET: string };
  /** Stops answering and removes the socket; idempotent. */
  close(): void;
}

/** A request line larger than this ends the connection (the hook sends commits in batches). */
const MAX_REQUEST_BYTES = 64 * 1024 * 1024;
/** A channel whose push never settles still closes. */
const CHANNEL_LIFETIME_MS = 6 * 60 * 60 * 1000;

const digest = (s: string) => crypto.createHash('sha256').update(s).digest();

/**
 * Opens a signature channel for one push. Requests are lines of JSON,
 * `{"secret", "commits": [{"sha", "raw" (base64)}]}`, each answered by a line
 * `{"verified": [sha …]}`: the commits `verify` accepts. A wrong secret or a malformed
 * request ends the connection unanswered; a verifier that throws counts as not verified.
 */
export async function openSignatureChannel(verify: CommitVerifier): Promise<SignatureChannel> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-push-'));
  fs.chmodSync(dir, 0o700);
  const socketPath = path.join(dir, 's');
  const secret = crypto.randomBytes(32).toString('hex');
  const expected = digest(secret);
  const connections = new Set<net.Socket>();

  async function answer(line: string): Promise<string | null> {
    let request: { secret?: unknown; commits?: unknown };
    try { request = JSON.parse(line); } catch { return null; }
    if (typeof request.secret !== 'string' || !crypto.timingSafeEqual(digest(request.secret), expected)) return null;
    if (!Array.isArray(request.commits)) return null;
    const verified: string[] = [];
    for (const c of request.commits as { sha?: unknown; raw?: unknown }[]) {
      if (typeof c?.sha !== 'string' || typeof c.raw !== 'string') return null;
      if (await verify(Buffer.from(c.raw, 'base64')).catch(() => false)) verified.push(c.sha);
    }
    return `${JSON.stringify({ verified })}\n`;
  }

  const server = net.createServer((conn) => {
    connections.add(conn);
    conn.on('close', () => connections.delete(conn));
    conn.on('error', () => conn.destroy());
    let pending: Buffer[] = [];
    let size = 0;
    let queue = Promise.resolve();
    conn.on('data', (chunk: Buffer) => {
      let start = 0;
      for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
        const line = Buffer.concat([...pending, chunk.subarray(start, nl)]).toString('utf8');
        pending = [];
        size = 0;
        start = nl + 1;
        queue = queue.then(async () => {
          const reply = await answer(line);
          if (reply === null) conn.destroy();
          else if (!conn.destroyed) conn.write(reply);
        });
      }
      pending.push(chunk.subarray(start));
      size += chunk.length - start;
      if (size > MAX_REQUEST_BYTES) conn.destroy();
    });
  });

  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    clearTimeout(timer);
    server.close();
    for (const conn of connections) conn.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const timer = setTimeout(close, CHANNEL_LIFETIME_MS);
  timer.unref();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => { server.off('error', reject); resolve(); });
    });
  } catch (err) {
    close();
    throw err;
  }
  server.unref();
  return { env: { WHARF_SIGNATURES_SOCKET: socketPath, WHARF_SIGNATURES_SECRET: secret }, close };
}
