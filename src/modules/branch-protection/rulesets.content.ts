// A ruleset's push-content rules (commit metadata and ref name patterns, file path,
// extension, path length and size limits) as the checks the pre-receive hook runs on
// what a push brings (src/git/protected-push.ts ContentCheck), each with the line its
// refusal shows. Pure.
import type { ContentCheck } from '../../git/protected-push.ts';
import { patternSource } from './protection.model.ts';
import type { RuleEntry } from './rulesets.model.ts';

type Operator = 'starts_with' | 'ends_with' | 'contains' | 'regex';
type PatternOn = Extract<ContentCheck, { kind: 'pattern' }>['on'];

const PATTERN_RULES: Record<string, { on: PatternOn; subject: string }> = {
  commit_message_pattern: { on: 'message', subject: 'Commit message' },
  commit_author_email_pattern: { on: 'author_email', subject: 'Commit author email' },
  committer_email_pattern: { on: 'committer_email', subject: 'Committer email' },
  branch_name_pattern: { on: 'branch_name', subject: 'Branch name' },
  tag_name_pattern: { on: 'tag_name', subject: 'Tag name' },
};

const VERBS: Record<Operator, string> = {
  starts_with: 'start with a matching pattern',
  ends_with: 'end with a matching pattern',
  contains: 'contain a matching pattern',
  regex: 'match a given regex pattern',
};

/** A restricted extension as given (".exe", "*.exe", "exe") → ".exe". */
export function extensionOf(raw: string): string {
  const bare = raw.trim().replace(/^\*?\.?/, '').toLowerCase();
  return `.${bare}`;
}

function checkOf(rule: RuleEntry): ContentCheck | null {
  const p = rule.parameters ?? {};
  const pattern = PATTERN_RULES[rule.type];
  if (pattern) {
    const operator = p.operator as Operator;
    const negate = p.negate === true;
    const named = typeof p.name === 'string' && p.name.trim() !== '' ? p.name.trim() : null;
    const says = named ?? `${pattern.subject} must ${negate ? 'not ' : ''}${VERBS[operator]}: ${String(p.pattern)}`;
    return { kind: 'pattern', on: pattern.on, operator, pattern: String(p.pattern), negate, says };
  }
  switch (rule.type) {
    case 'file_path_restriction': {
      const paths = p.restricted_file_paths as string[];
      return { kind: 'path', matches: paths.map(patternSource), says: `Cannot change restricted file paths: ${paths.join(', ')}` };
    }
    case 'max_file_path_length': {
      const max = p.max_file_path_length as number;
      return { kind: 'path_length', max, says: `File paths must be no longer than ${max} characters` };
    }
    case 'file_extension_restriction': {
      const extensions = [...new Set((p.restricted_file_extensions as string[]).map(extensionOf))];
      return { kind: 'extension', extensions, says: `Cannot push files with restricted extensions: ${extensions.join(', ')}` };
    }
    case 'max_file_size': {
      const mb = p.max_file_size as number;
      return { kind: 'file_size', maxBytes: mb * 1024 * 1024, says: `Files must be no larger than ${mb} MB` };
    }
    default: return null;
  }
}

/** The content checks of a ruleset's rules, in their order. */
export function contentChecks(rules: readonly RuleEntry[]): ContentCheck[] {
  return rules.map(checkOf).filter((c): c is ContentCheck => c !== null);
}

type PatternCheck = Extract<ContentCheck, { kind: 'pattern' }>;

/** Whether `value` passes the check: it matches the pattern, or (negated) does not. */
export function patternHolds(check: Pick<PatternCheck, 'operator' | 'pattern' | 'negate'>, value: string): boolean {
  let found: boolean;
  switch (check.operator) {
    case 'starts_with': found = value.startsWith(check.pattern); break;
    case 'ends_with': found = value.endsWith(check.pattern); break;
    case 'contains': found = value.includes(check.pattern); break;
    case 'regex': found = new RegExp(check.pattern).test(value); break;
  }
  return found !== check.negate;
}

/** What a raw commit object says of itself, as the pattern rules read it. */
function commitFields(raw: Buffer): Record<'message' | 'author_email' | 'committer_email', string> {
  const end = raw.indexOf('\n\n');
  const header = raw.subarray(0, end < 0 ? raw.length : end).toString('utf8');
  const email = (who: string) => new RegExp(`^${who} .*?<([^>]*)>`, 'm').exec(header)?.[1] ?? '';
  return {
    message: end < 0 ? '' : raw.subarray(end + 2).toString('utf8').replace(/\n+$/, ''),
    author_email: email('author'),
    committer_email: email('committer'),
  };
}

/**
 * The pattern rules a ref change made through the API breaks (the refs API moving a
 * ref onto commits, a branch or tag made there): the same rules, words and reading as
 * the push hook's, each said once. A name is judged when the ref is created.
 */
export function patternViolations(checks: readonly ContentCheck[], ref: string, created: boolean, commits: readonly Buffer[]): string[] {
  const out: string[] = [];
  const fields = commits.map(commitFields);
  for (const c of checks) {
    if (c.kind !== 'pattern') continue;
    if (c.on === 'branch_name' || c.on === 'tag_name') {
      const prefix = c.on === 'branch_name' ? 'refs/heads/' : 'refs/tags/';
      if (created && ref.startsWith(prefix) && !patternHolds(c, ref.slice(prefix.length))) out.push(c.says);
      continue;
    }
    const on = c.on;
    if (fields.some((f) => !patternHolds(c, f[on]))) out.push(c.says);
  }
  return out;
}
