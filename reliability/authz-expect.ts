// The expected answer of one cell (route × actor × resource), from the route's rule and
// what the actor is to the resource; and whether an answer matches it, or leaks.
import { permissionsSatisfy } from '../src/http/app-permission.ts';
import type { AppPermissionNeed } from '../src/http/types.ts';
import type { Actor, FixtureRepo, Role } from './authz-fixture.ts';
import type { Rule } from './authz-rules.ts';

/**
 * allow: the actor may (any answer but 401/403, and 404 only where the owner gets it too);
 * hide: the actor may not see the resource: the answer a repository that does not exist gets (404, or what the route says before any lookup);
 * deny: the actor sees the resource but may not do this: 403 (404, and 401 for anonymous, where upstream hides the feature too);
 * unauth: signing in is required: 401;
 * integration: the installation lacks the permission: 403;
 * any: not judged (the answer depends on something this matrix does not model: a scope of the route's own, an app's credential); its reads are sent, its writes are not.
 */
export type Outcome = 'allow' | 'hide' | 'deny' | 'unauth' | 'integration' | 'any';

/** What the suite's app installation holds (authz-fixture.ts). */
export const INSTALLATION_HOLDS = { metadata: 'read' } as const;

const RANK: Record<Role, number> = { pull: 1, triage: 2, push: 3, maintain: 4, admin: 5 };

/** The role the actor may use on the repository (token scopes applied), null: may not read it. */
export function roleOn(actor: Actor, r: FixtureRepo): Role | null {
  const publicRead: Role | null = r.private ? null : 'pull';
  switch (actor.kind) {
    case 'owner': return 'admin';
    case 'collaborator': return r.orgOwned ? actor.role! : 'push';
    case 'org-member': return r.orgOwned ? 'pull' : publicRead; // the organization's base permission is read
    case 'outsider':
    case 'anonymous':
    case 'no-scope': return publicRead; // a token without repo scopes reads public repositories only
    case 'installation': return r.orgOwned ? publicRead : 'pull'; // installed on the user's repositories, metadata only
  }
}

export function expectedOutcome(rule: Rule, method: string, appNeed: AppPermissionNeed | null, actor: Actor, r: FixtureRepo | null): Outcome {
  const need = rule.need;
  if (need.on === 'exempt') return 'any';
  if (actor.kind === 'installation') {
    if (need.on === 'app' || need.on === 'web-page') return 'any';
    if (!permissionsSatisfy(INSTALLATION_HOLDS, appNeed ?? 'none')) return 'integration';
  }
  const anonymous = actor.kind === 'anonymous';
  switch (need.on) {
    case 'repo': {
      const role = roleOn(actor, r!);
      if (role === null) return 'hide';
      // Any write to a repository needs a signed-in caller whose token holds public_repo or
      // repo: reading a public repository is not enough (issue creation, comments, stars).
      if (method !== 'GET' && (actor.kind === 'anonymous' || actor.kind === 'no-scope')) return 'deny';
      if (RANK[role] < RANK[need.role]) return 'deny';
      if (rule.signedIn && anonymous) return 'unauth';
      if (rule.signedIn && actor.kind === 'no-scope') return 'any';
      return 'allow';
    }
    case 'web-page': return r!.private ? 'hide' : 'allow';
    case 'public': return 'allow';
    case 'signed-in':
      if (anonymous) return 'unauth';
      return actor.kind === 'no-scope' ? 'any' : 'allow';
    case 'org-member':
      if (actor.kind === 'owner' || actor.kind === 'org-member') return 'allow';
      if (actor.kind === 'installation') return 'any';
      return 'deny';
    case 'org-owner':
      if (actor.kind === 'owner') return 'allow';
      if (actor.kind === 'installation') return 'any';
      return 'deny';
    case 'org-owner-or-repo-admin':
      if (actor.kind === 'owner' || (actor.kind === 'collaborator' && actor.role === 'admin')) return 'allow';
      if (actor.kind === 'installation') return 'any';
      return 'deny';
    case 'named-user':
    case 'site-admin': return actor.kind === 'installation' ? 'any' : 'deny';
    case 'app': return 'deny';
  }
}

export type Verdict = 'match' | 'mismatch' | 'unresolved';

export interface Judged {
  verdict: Verdict;
  /** A refused actor got a success (2xx, or a redirect to the thing). */
  leak: boolean;
  /** A hidden resource answered otherwise than a resource that does not exist: its existence shows. */
  revealed: boolean;
}

const success = (s: number) => (s >= 200 && s < 300) || (s >= 301 && s <= 308 && s !== 304);

export interface Observed {
  status: number;
  anonymous: boolean;
  /** The owner's answer to the same read (for 404s of parameters the fixture does not resolve). */
  ownerStatus: number | null;
  /** The same request's answer for a repository that does not exist (hidden cells only). */
  ghostStatus: number | null;
}

export function judge(outcome: Outcome, rule: Rule, o: Observed): Judged {
  const { status, anonymous } = o;
  const refused = outcome === 'hide' || outcome === 'deny' || outcome === 'unauth' || outcome === 'integration';
  // Hidden: the answer a repository that does not exist gets (404, or what the route says
  // before it looks the repository up: 401 to anonymous callers, a missing scope, a
  // redirect to the sign-in page).
  const asGhost = outcome === 'hide' && (o.ghostStatus !== null ? status === o.ghostStatus : status === 404);
  const ok2xx = status >= 200 && status < 300;
  const leak = refused && success(status) && !rule.silentlyIgnored && (ok2xx || !asGhost);
  const revealed = outcome === 'hide' && (ok2xx || !asGhost);
  const refusal = (s: number) => s === 403 || s === 404 || (anonymous && s === 401) || (rule.refusals ?? []).includes(s);
  let verdict: Verdict;
  switch (outcome) {
    case 'allow':
      if (status === 404 && o.ownerStatus === 404 && !rule.absentIs404) verdict = 'unresolved';
      else if ((rule.allowedAlso ?? []).includes(status) || (status === 404 && rule.absentIs404)) verdict = 'match';
      else verdict = status === 401 || status === 403 || status === 404 || (rule.refusals ?? []).includes(status) ? 'mismatch' : 'match';
      break;
    case 'hide': verdict = revealed ? 'mismatch' : 'match'; break;
    case 'deny': verdict = refusal(status) || (rule.silentlyIgnored && success(status)) ? 'match' : 'mismatch'; break;
    case 'unauth': verdict = status === 401 ? 'match' : 'mismatch'; break;
    case 'integration': verdict = status === 403 ? 'match' : 'mismatch'; break;
    case 'any': verdict = 'match'; break;
  }
  return { verdict, leak, revealed };
}
