// Code owners of a pull request, for the base branch's require_code_owner_reviews: the
// CODEOWNERS file of the base branch's tip, the files the pull request changes, and which
// of those files none of their owners approved. Owners are users (`@login`) and teams
// (`@org/slug`, any member); e-mail owners are not matched to accounts.
import type { AppContext } from '../../context.ts';
import { catFile } from '../../git/cat-file.ts';
import { changedFileNames, mergeBase } from '../../git/compare.ts';
import { CODEOWNERS_PATHS, ownerLabel, ownersOf, parseCodeOwners, type CodeOwnersRule } from '../branch-protection/protection.code-owners.ts';
import * as orgs from '../orgs/orgs.service.ts';
import type { Account } from '../users/users.model.ts';

/** Upstream ignores a CODEOWNERS file over 3 MB. */
const MAX_CODEOWNERS_BYTES = 3 * 1024 * 1024;

/** The rules of the first CODEOWNERS file found at `commit`, or none. */
export async function codeOwnersAt(dir: string, commit: string): Promise<CodeOwnersRule[]> {
  const found = await catFile(dir, CODEOWNERS_PATHS.map((p) => `${commit}:${p}`), true);
  const file = found.find((f) => f?.type === 'blob');
  if (!file?.content || file.size > MAX_CODEOWNERS_BYTES) return [];
  return parseCodeOwners(file.content.toString('utf8'));
}

/** Whether one of `approvers` is `owner`: the user of that login, or a member of that team. */
async function approvedBy(ctx: AppContext, owner: string, approvers: readonly Account[], teams: Map<string, Promise<number[]>>): Promise<boolean> {
  if (!owner.startsWith('@')) return false;
  const name = owner.slice(1).toLowerCase();
  const slash = name.indexOf('/');
  if (slash < 0) return approvers.some((a) => a.login.toLowerCase() === name);
  let members = teams.get(name);
  if (!members) {
    members = orgs.teamMemberIds(ctx, { org: name.slice(0, slash), teamSlug: name.slice(slash + 1) });
    teams.set(name, members);
  }
  const ids = await members;
  return approvers.some((a) => ids.includes(a.id));
}

/**
 * The owners still awaited, as upstream lists them (users by login, teams as `@org/slug`):
 * those of each changed file that no owner of it approved. Empty when every owned file
 * has an owner's approval, or nothing changed is owned.
 */
export async function awaitedCodeOwners(
  ctx: AppContext, dir: string, baseTip: string, headSha: string, approvers: readonly Account[],
): Promise<string[]> {
  const rules = await codeOwnersAt(dir, baseTip);
  if (!rules.length) return [];
  const from = await mergeBase(dir, baseTip, headSha);
  if (!from) return [];
  const teams = new Map<string, Promise<number[]>>();
  const decided = new Map<string, boolean>();
  const awaited = new Set<string>();
  for (const path of await changedFileNames(dir, from, headSha)) {
    const owners = ownersOf(rules, path);
    if (!owners.length) continue;
    // The same owners recur file after file: each set is judged once.
    const key = owners.join(' ');
    let approved = decided.get(key);
    if (approved === undefined) {
      approved = false;
      for (const owner of owners) if (await approvedBy(ctx, owner, approvers, teams)) { approved = true; break; }
      decided.set(key, approved);
    }
    if (!approved) for (const owner of owners) if (owner.startsWith('@')) awaited.add(ownerLabel(owner));
  }
  return [...awaited];
}
