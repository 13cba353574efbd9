// OAuth scopes of classic personal access tokens, and which scopes imply others.
// Names follow the published list; a parent scope grants all of its children.

const CHILDREN: Record<string, string[]> = {
  repo: ['repo:status', 'repo_deployment', 'public_repo', 'repo:invite', 'security_events'],
  'admin:repo_hook': ['write:repo_hook'],
  'write:repo_hook': ['read:repo_hook'],
  'admin:org': ['write:org', 'manage_runners:org'],
  'write:org': ['read:org'],
  'admin:public_key': ['write:public_key'],
  'write:public_key': ['read:public_key'],
  'admin:gpg_key': ['write:gpg_key'],
  'write:gpg_key': ['read:gpg_key'],
  'admin:ssh_signing_key': ['write:ssh_signing_key'],
  'write:ssh_signing_key': ['read:ssh_signing_key'],
  user: ['read:user', 'user:email', 'user:follow'],
  'write:discussion': ['read:discussion'],
  'write:packages': ['read:packages'],
  'admin:enterprise': ['manage_runners:enterprise', 'manage_billing:enterprise', 'read:enterprise'],
  project: ['read:project'],
  codespace: ['codespace:secrets'],
};

const STANDALONE = [
  'admin:org_hook', 'gist', 'notifications', 'delete_repo', 'workflow', 'delete:packages',
  'site_admin', 'audit_log', 'read:audit_log', 'copilot', 'manage_billing:copilot',
];

export const ALL_SCOPES: readonly string[] = [
  ...new Set([...Object.keys(CHILDREN), ...Object.values(CHILDREN).flat(), ...STANDALONE]),
].sort();

const KNOWN = new Set(ALL_SCOPES);

export function isKnownScope(scope: string): boolean {
  return KNOWN.has(scope);
}

const expanded = new Map<string, ReadonlySet<string>>();

/** expandScopes for a token's stored scope list, memoized: tokens share few distinct lists. */
export function expandedScopesOf(scopes: readonly string[]): ReadonlySet<string> {
  const key = scopes.join(',');
  let set = expanded.get(key);
  if (!set) {
    set = expandScopes(scopes);
    if (expanded.size < 10_000) expanded.set(key, set);
  }
  return set;
}

/** Every scope the given scopes grant, including implied children. */
export function expandScopes(scopes: Iterable<string>): Set<string> {
  const out = new Set<string>();
  const visit = (s: string) => {
    if (out.has(s)) return;
    out.add(s);
    for (const child of CHILDREN[s] ?? []) visit(child);
  };
  for (const s of scopes) visit(s);
  return out;
}

/** Stored form: comma-separated, as the X-OAuth-Scopes header shows it. */
export function formatScopes(scopes: readonly string[]): string {
  return scopes.join(', ');
}

export function parseScopes(stored: string): string[] {
  return stored.split(',').map((s) => s.trim()).filter(Boolean);
}

export interface ScopeNode {
  scope: string;
  /** The scopes it grants directly (each may grant more). */
  children: ScopeNode[];
}

/** The scopes as a tree of what grants what, roots sorted: the token form's checkboxes. */
export function scopeTree(): ScopeNode[] {
  const isChild = new Set(Object.values(CHILDREN).flat());
  const node = (scope: string): ScopeNode => ({ scope, children: (CHILDREN[scope] ?? []).map(node) });
  return ALL_SCOPES.filter((s) => !isChild.has(s)).map(node);
}
