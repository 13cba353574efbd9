// receive-pack's pre-receive hook for protected branches (see src/git/protected-push.ts):
// reads "old new ref" lines, applies WHARF_PUSH_RULES, and declines the whole push with
// upstream's messages when a ref breaks its branch's classic rule (GH006, the first
// matching rule) or any repository ruleset covering it (GH013, every violated rule). git runs it with the
// pushed objects reachable (quarantine), so rev-list and cat-file see them. Whether a
// commit's signature is verified is asked of the server that started the push, over the
// signature channel named by WHARF_SIGNATURES_SOCKET (with WHARF_SIGNATURES_SECRET); with
// no channel, no commit counts as verified. A ruleset's content checks (commit message,
// author and committer email patterns, new branch and tag name patterns, restricted
// paths and extensions, path length, file size) are judged on the commits the push
// adds and the files each changes against its first parent. A pusher who bypasses rules
// (an administrator of a classic rule that does not enforce admins, a ruleset's bypass
// actor) has them judged all the same: an accepted push then tells what was bypassed
// ("Bypassed rule violations for <ref>:", a line per rule), as upstream does.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';

const ZERO = /^0+$/;
const rules = JSON.parse(process.env.WHARF_PUSH_RULES ?? '[]').map((r) => ({ ...r, re: new RegExp(r.matches) }));
/** Commits read and judged at a time, and the raw bytes sent in one request at most. */
const BATCH = 200;
const BATCH_BYTES = 16 * 1024 * 1024;

function git(args, okCodes = [0], encoding = 'utf8', input = undefined) {
  try {
    const stdio = [input === undefined ? 'ignore' : 'pipe', 'pipe', 'ignore'];
    return { code: 0, out: execFileSync('git', args, { encoding, stdio, input, maxBuffer: 256 * 1024 * 1024 }) };
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

/** A commit's parents, author and committer emails and message, read once per push. */
const commits = new Map();
function commitInfo(sha) {
  let info = commits.get(sha);
  if (info) return info;
  const raw = git(['cat-file', 'commit', sha], [0], 'buffer').out;
  const end = raw.indexOf('\n\n');
  const header = raw.subarray(0, end < 0 ? raw.length : end).toString('utf8');
  const email = (who) => header.match(new RegExp(`^${who} .*?<([^>]*)>`, 'm'))?.[1] ?? '';
  info = {
    parents: [...header.matchAll(/^parent ([0-9a-f]+)$/gm)].map((m) => m[1]),
    author_email: email('author'),
    committer_email: email('committer'),
    message: end < 0 ? '' : raw.subarray(end + 2).toString('utf8').replace(/\n+$/, ''),
  };
  commits.set(sha, info);
  return info;
}

/** The files a commit adds or changes against its first parent (all of a root commit's): {path, blob}. */
const changes = new Map();
function changedFiles(sha) {
  let files = changes.get(sha);
  if (files) return files;
  const parent = commitInfo(sha).parents[0];
  const args = ['diff-tree', '-r', '-z', '--no-commit-id', '--no-renames', '--diff-filter=d', ...(parent ? [parent, sha] : ['--root', sha])];
  const fields = git(args).out.split('\0');
  files = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [, mode, , blob] = fields[i].split(' ');
    // Submodules (gitlinks) are no files of this repository.
    if (mode !== '160000') files.push({ path: fields[i + 1], blob });
  }
  changes.set(sha, files);
  return files;
}

/** Sizes of blobs by id, read in one batch. */
function blobSizes(blobs) {
  const out = new Map();
  if (blobs.length === 0) return out;
  const lines = git(['cat-file', '--batch-check=%(objectname) %(objectsize)'], [0], 'utf8', `${blobs.join('\n')}\n`).out.split('\n');
  for (const line of lines) {
    const [id, size] = line.split(' ');
    if (id && size !== undefined) out.set(id, Number(size));
  }
  return out;
}

function patternHolds(check, value) {
  let found;
  switch (check.operator) {
    case 'starts_with': found = value.startsWith(check.pattern); break;
    case 'ends_with': found = value.endsWith(check.pattern); break;
    case 'contains': found = value.includes(check.pattern); break;
    default: found = new RegExp(check.pattern).test(value);
  }
  return found !== check.negate;
}

/** At most this many violations are named under a rule; the count says the rest. */
const SHOWN = 10;

function withFound(says, found) {
  if (found.length === 0) return [];
  const listed = found.slice(0, SHOWN).map((f) => `  ${f}`);
  if (found.length > SHOWN) listed.push(`  … and ${found.length - SHOWN} more`);
  return [`${says}\n  Found ${found.length} violation${found.length === 1 ? '' : 's'}:\n\n${listed.join('\n')}`];
}

/** What the ruleset's content checks find wrong in the change: one entry per broken rule. */
function contentProblems(rule, oldSha, newSha, ref) {
  const checks = rule.ruleset.content ?? [];
  if (checks.length === 0) return [];
  const created = ZERO.test(oldSha);
  let shas = null;
  const added = () => (shas ??= newCommits(oldSha, newSha));
  const out = [];
  for (const check of checks) {
    if (check.kind === 'pattern') {
      if (check.on === 'branch_name' || check.on === 'tag_name') {
        // A name is judged when the ref comes into being.
        const prefix = check.on === 'branch_name' ? 'refs/heads/' : 'refs/tags/';
        if (created && ref.startsWith(prefix) && !patternHolds(check, ref.slice(prefix.length))) out.push(check.says);
        continue;
      }
      out.push(...withFound(check.says, added().filter((sha) => !patternHolds(check, commitInfo(sha)[check.on])).map((sha) => sha.slice(0, 7))));
      continue;
    }
    const files = [];
    for (const sha of added()) for (const f of changedFiles(sha)) files.push(f);
    let bad;
    if (check.kind === 'path') {
      const res = check.matches.map((m) => new RegExp(m));
      bad = files.filter((f) => res.some((re) => re.test(f.path)));
    } else if (check.kind === 'path_length') {
      bad = files.filter((f) => f.path.length > check.max);
    } else if (check.kind === 'extension') {
      bad = files.filter((f) => check.extensions.some((e) => f.path.toLowerCase().endsWith(e)));
    } else {
      const sizes = blobSizes([...new Set(files.map((f) => f.blob))]);
      bad = files.filter((f) => (sizes.get(f.blob) ?? 0) > check.maxBytes);
    }
    out.push(...withFound(check.says, [...new Set(bad.map((f) => f.path))]));
  }
  return out;
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
  out.push(...contentProblems(rule, oldSha, newSha, ref));
  return out;
}

/**
 * What the parts of a classic rule the pusher bypasses would have refused of the
 * change (every one, as upstream's notice lists them).
 */
async function bypassedProblems(rule, oldSha, newSha) {
  const b = rule.bypassed;
  if (ZERO.test(newSha)) return b.violations.length ? ['Cannot delete this branch'] : [];
  return [...b.violations, ...(await commitProblems({ requireSignatures: b.requireSignatures, requireLinearHistory: b.requireLinearHistory }, oldSha, newSha))];
}

const classic = rules.filter((r) => !r.ruleset);
const rulesets = rules.filter((r) => r.ruleset);
const failures = [];
const violations = [];
/** Refs with what the pusher's bypasses let through, told only when the push is accepted. */
const bypasses = [];
for (const line of readFileSync(0, 'utf8').split('\n')) {
  const [oldSha, newSha, ref] = line.trim().split(' ');
  if (!ref) continue;
  const rule = ref.startsWith('refs/heads/') ? classic.find((r) => r.re.test(ref.slice('refs/heads/'.length))) : undefined;
  const why = rule ? await problem(rule, oldSha, newSha) : null;
  if (why) failures.push([ref, why]);
  const bypassed = new Set(!why && rule?.bypassed ? await bypassedProblems(rule, oldSha, newSha) : []);
  const broken = new Set();
  for (const rs of rulesets.filter((r) => r.re.test(ref))) {
    const into = rs.ruleset.bypassed ? bypassed : broken;
    for (const what of await rulesetProblems(rs, oldSha, newSha, ref)) into.add(what);
  }
  if (broken.size) violations.push([ref, [...broken], rulesets[0].ruleset.rulesUrl]);
  if (bypassed.size) bypasses.push([ref, [...bypassed]]);
}
channel?.end();
if (failures.length === 0 && violations.length === 0) {
  for (const [ref, what] of bypasses) {
    process.stderr.write(`Bypassed rule violations for ${ref}:\n\n${what.map((w) => `- ${w}\n\n`).join('')}`);
  }
}
for (const [ref, why] of failures) {
  process.stderr.write(`error: GH006: Protected branch update failed for ${ref}.\nerror: ${why}\n`);
}
for (const [ref, broken, url] of violations) {
  process.stderr.write(`error: GH013: Repository rule violations found for ${ref}.\nReview all repository rules at ${url}?ref=${encodeURIComponent(ref)}\n\n`);
  for (const what of broken) process.stderr.write(`- ${what}\n\n`);
}
process.exit(failures.length || violations.length ? 1 : 0);
