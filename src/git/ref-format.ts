// `git check-ref-format` in TypeScript: every ref or branch name a user gives (refs API,
// pull request head and base, contents `branch`, deployments `ref`, GraphQL createRef …)
// is checked here before it reaches git, so git is never fed a name it would refuse, or
// one long enough to hurt it (a 100,000-character base made git segfault, issue #11).

/**
 * The longest ref name taken, in UTF-8 bytes. git sets none, but a loose ref is a file:
 * each component is a file name (255 bytes on common file systems), and upstream refuses
 * branch names beyond 255 bytes.
 */
export const MAX_REF_BYTES = 1024;
export const MAX_REF_COMPONENT_BYTES = 255;

/**
 * Why `name` is not a valid ref name under check-ref-format's rules, or null when it is:
 * no "..", "@{", control characters, space, ~ ^ : ? * [ \, no component starting with "."
 * or ending with ".lock", no empty component (leading, trailing or double "/"), no
 * trailing ".", not "@"; and within the length bounds above.
 */
export function refNameProblem(name: string): string | null {
  if (name === '') return 'is empty';
  if (Buffer.byteLength(name, 'utf8') > MAX_REF_BYTES) return `is longer than ${MAX_REF_BYTES} bytes`;
  if (name === '@') return 'is "@"';
  if (name.endsWith('.')) return 'ends with "."';
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//')) return 'has an empty component';
  if (name.includes('..')) return 'contains ".."';
  if (name.includes('@{')) return 'contains "@{"';
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return 'contains a control character, space, or one of ~ ^ : ? * [ \\';
  for (const c of name.split('/')) {
    if (c.startsWith('.')) return 'has a component starting with "."';
    if (c.endsWith('.lock')) return 'has a component ending with ".lock"';
    if (Buffer.byteLength(c, 'utf8') > MAX_REF_COMPONENT_BYTES) return `has a component longer than ${MAX_REF_COMPONENT_BYTES} bytes`;
  }
  return null;
}

/** Whether `name` (a full ref such as refs/heads/main, or a part of one) passes check-ref-format. */
export function isValidRefName(name: string): boolean {
  return refNameProblem(name) === null;
}

/**
 * `git check-ref-format --branch`: refs/heads/<branch> must be a valid ref, and a branch
 * never starts with "-" (it would read as an option).
 */
export function branchNameProblem(branch: string): string | null {
  if (branch.startsWith('-')) return 'starts with "-"';
  return refNameProblem(branch) ?? refNameProblem(`refs/heads/${branch}`);
}

export function isValidBranchName(branch: string): boolean {
  return branchNameProblem(branch) === null;
}
