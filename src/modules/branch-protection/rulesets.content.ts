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
