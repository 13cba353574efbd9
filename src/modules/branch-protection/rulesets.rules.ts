// The rule types of a ruleset and their parameters, as upstream's repository-rule
// schema has them: each rule is checked here (a known type, the parameters it requires,
// each of the right kind and range) so that a bad one is a 422 naming it and nothing is
// stored. Which of them Wharf enforces is rulesets.model's ENFORCED_RULES.
import { ValidationError } from '../../domain/errors.ts';
import type { RuleEntry } from './rulesets.model.ts';

type Kind =
  | { t: 'boolean' } | { t: 'string' } | { t: 'integer'; min?: number; max?: number }
  | { t: 'enum'; values: readonly string[] } | { t: 'strings' } | { t: 'objects' };

interface ParamSpec {
  required: readonly string[];
  props: Record<string, Kind>;
}

const B: Kind = { t: 'boolean' };
const S: Kind = { t: 'string' };
const STRINGS: Kind = { t: 'strings' };
const OBJECTS: Kind = { t: 'objects' };
const int = (min?: number, max?: number): Kind => ({ t: 'integer', ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) });
const oneOf = (...values: string[]): Kind => ({ t: 'enum', values });

const PATTERN: ParamSpec = {
  required: ['operator', 'pattern'],
  props: { name: S, negate: B, operator: oneOf('starts_with', 'ends_with', 'contains', 'regex'), pattern: S },
};

/** Each rule type upstream knows; null: it takes no parameters. */
const RULE_TYPES: Record<string, ParamSpec | null> = {
  creation: null,
  update: { required: [], props: { update_allows_fetch_and_merge: B } },
  deletion: null,
  required_linear_history: null,
  merge_queue: {
    required: ['check_response_timeout_minutes', 'grouping_strategy', 'max_entries_to_build', 'max_entries_to_merge', 'merge_method', 'min_entries_to_merge', 'min_entries_to_merge_wait_minutes'],
    props: {
      check_response_timeout_minutes: int(1, 360), grouping_strategy: oneOf('ALLGREEN', 'HEADGREEN'), max_entries_to_build: int(0, 100),
      max_entries_to_merge: int(0, 100), merge_method: oneOf('MERGE', 'SQUASH', 'REBASE'), min_entries_to_merge: int(0, 100),
      min_entries_to_merge_wait_minutes: int(0, 360),
    },
  },
  required_deployments: { required: ['required_deployment_environments'], props: { required_deployment_environments: STRINGS } },
  required_signatures: null,
  pull_request: {
    required: ['dismiss_stale_reviews_on_push', 'require_code_owner_review', 'require_last_push_approval', 'required_approving_review_count', 'required_review_thread_resolution'],
    props: {
      allowed_merge_methods: STRINGS, dismiss_stale_reviews_on_push: B, dismissal_restriction: OBJECTS, require_code_owner_review: B,
      require_last_push_approval: B, required_approving_review_count: int(0, 10), required_review_thread_resolution: B, required_reviewers: OBJECTS,
    },
  },
  required_status_checks: {
    required: ['required_status_checks', 'strict_required_status_checks_policy'],
    props: { do_not_enforce_on_create: B, required_status_checks: OBJECTS, strict_required_status_checks_policy: B },
  },
  non_fast_forward: null,
  commit_message_pattern: PATTERN,
  commit_author_email_pattern: PATTERN,
  committer_email_pattern: PATTERN,
  branch_name_pattern: PATTERN,
  tag_name_pattern: PATTERN,
  workflows: { required: ['workflows'], props: { do_not_enforce_on_create: B, workflows: OBJECTS } },
  code_scanning: { required: ['code_scanning_tools'], props: { code_scanning_tools: OBJECTS } },
  copilot_code_review: { required: [], props: { review_draft_pull_requests: B, review_on_push: B } },
  license_compliance_scanning: null,
  file_path_restriction: { required: ['restricted_file_paths'], props: { restricted_file_paths: STRINGS } },
  max_file_path_length: { required: ['max_file_path_length'], props: { max_file_path_length: int(1, 32767) } },
  file_extension_restriction: { required: ['restricted_file_extensions'], props: { restricted_file_extensions: STRINGS } },
  max_file_size: { required: ['max_file_size'], props: { max_file_size: int(1, 100) } },
};

const RESOURCE = 'Ruleset';

function invalid(message: string): ValidationError {
  return ValidationError.field(RESOURCE, 'rules', 'invalid', message);
}

function fits(kind: Kind, v: unknown): boolean {
  switch (kind.t) {
    case 'boolean': return typeof v === 'boolean';
    case 'string': return typeof v === 'string';
    case 'integer': return Number.isInteger(v) && (kind.min === undefined || (v as number) >= kind.min) && (kind.max === undefined || (v as number) <= kind.max);
    case 'enum': return typeof v === 'string' && kind.values.includes(v);
    case 'strings': return Array.isArray(v) && v.every((x) => typeof x === 'string');
    case 'objects': return Array.isArray(v) ? v.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x)) : v !== null && typeof v === 'object';
  }
}

/** Required status checks: each a context, with the id of the app that must set it or none. */
function checkStatusChecks(list: unknown): void {
  for (const c of list as Record<string, unknown>[]) {
    if (typeof c.context !== 'string' || c.context === '') throw invalid("Invalid rule 'required_status_checks': each required status check needs a context");
    if (c.integration_id !== undefined && !Number.isInteger(c.integration_id)) throw invalid("Invalid rule 'required_status_checks': integration_id must be an integer");
  }
}

/** A pattern rule's pattern: not empty, and a regular expression that compiles where it is one (the push hook runs it). */
function checkPattern(type: string, p: Record<string, unknown>): void {
  const pattern = p.pattern as string;
  if (pattern === '') throw invalid(`Invalid rule '${type}': pattern can't be blank`);
  if (p.operator !== 'regex') return;
  try {
    new RegExp(pattern);
  } catch {
    throw invalid(`Invalid rule '${type}': pattern is not a valid regular expression`);
  }
}

/** Restricted paths and extensions: each entry something. */
function checkNonEmpty(type: string, entries: readonly string[]): void {
  if (entries.some((e) => e.trim() === '' || e.trim() === '*.' || e.trim() === '.')) throw invalid(`Invalid rule '${type}': entries can't be blank`);
}

/** A rule as given, checked; the stored form keeps its parameters as they came. */
export function checkRule(raw: unknown, index: number): RuleEntry {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw invalid(`Invalid property /rules/${index}: must be an object`);
  const { type, parameters } = raw as { type?: unknown; parameters?: unknown };
  if (typeof type !== 'string' || !(type in RULE_TYPES)) throw invalid(`Invalid rule type '${String(type)}'`);
  const spec = RULE_TYPES[type]!;
  if (spec === null) return { type };
  if (parameters !== undefined && (parameters === null || typeof parameters !== 'object' || Array.isArray(parameters))) {
    throw invalid(`Invalid rule '${type}': parameters must be an object`);
  }
  const p = (parameters ?? {}) as Record<string, unknown>;
  for (const name of spec.required) {
    if (p[name] === undefined) throw invalid(`Invalid rule '${type}': missing parameter '${name}'`);
  }
  for (const [name, v] of Object.entries(p)) {
    const kind = spec.props[name];
    if (!kind) throw invalid(`Invalid rule '${type}': unknown parameter '${name}'`);
    if (!fits(kind, v)) throw invalid(`Invalid rule '${type}': invalid value for parameter '${name}'`);
  }
  if (type === 'required_status_checks') checkStatusChecks(p.required_status_checks);
  if (spec === PATTERN) checkPattern(type, p);
  if (type === 'file_path_restriction') checkNonEmpty(type, p.restricted_file_paths as string[]);
  if (type === 'file_extension_restriction') checkNonEmpty(type, p.restricted_file_extensions as string[]);
  if (type === 'update' && parameters === undefined) return { type };
  return { type, parameters: p };
}

/** A ruleset's rules, checked; a type given twice is refused, as upstream. */
export function checkRules(raw: readonly unknown[]): RuleEntry[] {
  const rules = raw.map(checkRule);
  const seen = new Set<string>();
  for (const r of rules) {
    if (seen.has(r.type)) throw invalid(`Invalid rules: '${r.type}' is given more than once`);
    seen.add(r.type);
  }
  return rules;
}
