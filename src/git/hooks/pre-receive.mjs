// receive-pack's pre-receive hook for protected branches (see src/git/protected-push.ts):
// reads "old new ref" lines, applies WHARF_PUSH_RULES, and declines the whole push with
// upstream's messages (GH006) when a ref breaks its branch's rule. git runs it with the
// pushed objects reachable (quarantine), so rev-list and cat-file see them.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const ZERO = /^0+$/;
const rules = JSON.parse(process.env.WHARF_PUSH_RULES ?? '[]').map((r) => ({ ...r, re: new RegExp(r.matches) }));

function git(args, okCodes = [0]) {
  try {
    return { code: 0, out: execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 256 * 1024 * 1024 }) };
  } catch (err) {
    if (typeof err.status === 'number' && okCodes.includes(err.status)) return { code: err.status, out: String(err.stdout ?? '') };
    throw err;
  }
}

/** The commits the push adds to the branch. */
function newCommits(oldSha, newSha) {
  const range = ZERO.test(oldSha) ? [newSha, '--not', '--all'] : [newSha, `^${oldSha}`];
  return git(['rev-list', ...range]).out.split('\n').filter(Boolean);
}

function problem(rule, oldSha, newSha) {
  const deleted = ZERO.test(newSha);
  if (deleted) return rule.allowDeletions && !rule.deny ? null : 'Cannot delete this branch';
  if (rule.deny) return rule.deny;
  if (!ZERO.test(oldSha) && !rule.allowForcePushes && git(['merge-base', '--is-ancestor', oldSha, newSha], [1]).code === 1) {
    return 'Cannot force-push to this branch';
  }
  if (!rule.requireSignatures && !rule.requireLinearHistory) return null;
  for (const sha of newCommits(oldSha, newSha)) {
    const raw = git(['cat-file', 'commit', sha]).out;
    const header = raw.slice(0, raw.indexOf('\n\n'));
    if (rule.requireLinearHistory && (header.match(/^parent /gm) ?? []).length > 1) return 'This branch must not contain merge commits.';
    if (rule.requireSignatures && !/^gpgsig(-sha256)? /m.test(header)) return 'Commits must have verified signatures.';
  }
  return null;
}

const failures = [];
for (const line of readFileSync(0, 'utf8').split('\n')) {
  const [oldSha, newSha, ref] = line.trim().split(' ');
  if (!ref || !ref.startsWith('refs/heads/')) continue;
  const rule = rules.find((r) => r.re.test(ref.slice('refs/heads/'.length)));
  if (!rule) continue;
  const why = problem(rule, oldSha, newSha);
  if (why) failures.push([ref, why]);
}
for (const [ref, why] of failures) {
  process.stderr.write(`error: GH006: Protected branch update failed for ${ref}.\nerror: ${why}\n`);
}
process.exit(failures.length ? 1 : 0);
