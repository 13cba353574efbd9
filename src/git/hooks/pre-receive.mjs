// receive-pack's pre-receive hook for protected branches (see src/git/protected-push.ts):
// reads "old new ref" lines, applies WHARF_PUSH_RULES, and declines the whole push with
// upstream's messages when a ref breaks its branch's classic rule (GH006, the first
// matching rule) or any repository ruleset covering it (GH013, every violated rule). git runs it with the
// pushed objects reachable (quarantine), so rev-list and cat-file see them. Whether a
// commit's signature is verified is asked of the server that started the push, over the
// signature channel named by WHARF_SIGNATURES_SOCKET (with WHARF_SIGNATURES_SECRET); with
// no channel, no commit counts as verified.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';

const ZERO = /^0+$/;
const rules = JSON.parse(process.env.WHARF_PUSH_RULES ?? '[]').map((r) => ({ ...r, re: new RegExp(r.matches) }));
/** Commits read and judged at a time, and the raw bytes sent in one request at most. */
const BATCH = 200;
const BATCH_BYTES = 16 * 1024 * 1024;

function git(args, okCodes = [0], encoding = 'utf8') {
  try {
    return { code: 0, out: execFileSync('git', args, { encoding, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 256 * 1024 * 1024 }) };
  } catch (err) {
    if (typeof err.status === 'number' && okCodes.includes(err.status)) return { code: err.status, out: err.stdout ?? '' };
    throw err;
  }
}

/** The commits the push adds to the branch. */
function newCommits(oldSha, newSha) {
  const range = ZERO.test(oldSha) ? [newSha, '--not', '--all'] : [newSha, `^${oldSha}`];
  return git(['rev-list', ...range]).out.split('\n').filter(Boolean);
}

/** The signature channel: one connection, requests and answers one line each. */
class Channel {
  constructor(socketPath, secret) {
    this.secret = secret;
    this.waiting = null;
    this.buffered = '';
    this.failed = null;
    this.socket = net.createConnection(socketPath);
    this.socket.setEncoding('utf8');
    this.socket.on('data', (text) => {
      this.buffered += text;
      const nl = this.buffered.indexOf('\n');
      if (nl < 0 || !this.waiting) return;
      const line = this.buffered.slice(0, nl);
      this.buffered = this.buffered.slice(nl + 1);
      const { resolve } = this.waiting;
      this.waiting = null;
      resolve(line);
    });
    const fail = (err) => {
      this.failed = err ?? new Error('the signature channel closed');
      if (this.waiting) this.waiting.reject(this.failed);
      this.waiting = null;
    };
    this.socket.on('error', fail);
    this.socket.on('close', () => fail());
  }

  /** The shas among `commits` ({sha, raw: Buffer}) whose signatures the server verified. */
  async verified(commits) {
    if (this.failed) throw this.failed;
    const line = await new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      const body = { secret: this.secret, commits: commits.map((c) => ({ sha: c.sha, raw: c.raw.toString('base64') })) };
      this.socket.write(`${JSON.stringify(body)}\n`);
    });
    return new Set(JSON.parse(line).verified);
  }

  end() { this.socket.end(); }
}

let channel = null;
function signatureChannel() {
  const socketPath = process.env.WHARF_SIGNATURES_SOCKET;
  const secret = process.env.WHARF_SIGNATURES_SECRET;
  if (!socketPath || !secret) return null;
  channel ??= new Channel(socketPath, secret);
  return channel;
}

/** Which of `commits` carry a verified signature; none when it cannot be asked. */
async function verifiedShas(commits) {
  const signed = commits.filter((c) => c.signed);
  const out = new Set();
  const ch = signed.length ? signatureChannel() : null;
  if (!ch) return out;
  try {
    for (let i = 0; i < signed.length;) {
      const part = [];
      let bytes = 0;
      while (i < signed.length && (part.length === 0 || bytes + signed[i].raw.length <= BATCH_BYTES)) {
        bytes += signed[i].raw.length;
        part.push(signed[i++]);
      }
      for (const sha of await ch.verified(part)) out.add(sha);
    }
  } catch (err) {
    process.stderr.write(`error: could not check commit signatures: ${err.message}\n`);
  }
  return out;
}

/** What the commits the push brings break (merge commits, unverified signatures), each said once. */
async function commitProblems(rule, oldSha, newSha) {
  const out = new Set();
  if (!rule.requireSignatures && !rule.requireLinearHistory) return [];
  const shas = newCommits(oldSha, newSha);
  for (let i = 0; i < shas.length; i += BATCH) {
    const commits = shas.slice(i, i + BATCH).map((sha) => {
      const raw = git(['cat-file', 'commit', sha], [0], 'buffer').out;
      const end = raw.indexOf('\n\n');
      const header = raw.subarray(0, end < 0 ? raw.length : end).toString('latin1');
      return { sha, raw, merge: (header.match(/^parent /gm) ?? []).length > 1, signed: /^gpgsig(-sha256)? /m.test(header) };
    });
    const verified = rule.requireSignatures ? await verifiedShas(commits) : null;
    for (const c of commits) {
      if (rule.requireLinearHistory && c.merge) out.add('This branch must not contain merge commits.');
      if (rule.requireSignatures && !verified.has(c.sha)) out.add('Commits must have verified signatures.');
    }
  }
  return [...out];
}

const forced = (oldSha, newSha) => git(['merge-base', '--is-ancestor', oldSha, newSha], [1]).code === 1;

/** Why a classic rule refuses the change: the first reason, or null. */
async function problem(rule, oldSha, newSha) {
  const deleted = ZERO.test(newSha);
  if (deleted) return rule.allowDeletions && !rule.deny ? null : 'Cannot delete this branch';
  if (rule.deny) return rule.deny;
  if (!ZERO.test(oldSha) && !rule.allowForcePushes && forced(oldSha, newSha)) return 'Cannot force-push to this branch';
  return (await commitProblems(rule, oldSha, newSha))[0] ?? null;
}

/** Every rule of a ruleset the change breaks (upstream lists them all). */
async function rulesetProblems(rule, oldSha, newSha, ref) {
  const word = ref.startsWith('refs/tags/') ? 'tag' : 'branch';
  if (ZERO.test(newSha)) return rule.allowDeletions ? [] : [`Cannot delete this ${word}`];
  const created = ZERO.test(oldSha);
  const out = [];
  if (created && rule.ruleset.blockCreations) out.push('Cannot create ref due to creations being restricted.');
  if (!created && rule.ruleset.blockUpdates) out.push('Cannot update this protected ref.');
  out.push(...rule.ruleset.violations);
  if (!created && !rule.allowForcePushes && forced(oldSha, newSha)) out.push(`Cannot force-push to this ${word}`);
  out.push(...(await commitProblems(rule, oldSha, newSha)));
  return out;
}

const classic = rules.filter((r) => !r.ruleset);
const rulesets = rules.filter((r) => r.ruleset);
const failures = [];
const violations = [];
for (const line of readFileSync(0, 'utf8').split('\n')) {
  const [oldSha, newSha, ref] = line.trim().split(' ');
  if (!ref) continue;
  const rule = ref.startsWith('refs/heads/') ? classic.find((r) => r.re.test(ref.slice('refs/heads/'.length))) : undefined;
  const why = rule ? await problem(rule, oldSha, newSha) : null;
  if (why) failures.push([ref, why]);
  const broken = new Set();
  for (const rs of rulesets.filter((r) => r.re.test(ref))) {
    for (const what of await rulesetProblems(rs, oldSha, newSha, ref)) broken.add(what);
  }
  if (broken.size) violations.push([ref, [...broken], rulesets[0].ruleset.rulesUrl]);
}
channel?.end();
for (const [ref, why] of failures) {
  process.stderr.write(`error: GH006: Protected branch update failed for ${ref}.\nerror: ${why}\n`);
}
for (const [ref, broken, url] of violations) {
  process.stderr.write(`error: GH013: Repository rule violations found for ${ref}.\nReview all repository rules at ${url}?ref=${encodeURIComponent(ref)}\n\n`);
  for (const what of broken) process.stderr.write(`- ${what}\n\n`);
}
process.exit(failures.length || violations.length ? 1 : 0);
