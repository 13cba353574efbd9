// Who escapes a ruleset: its bypass actors, as upstream reads them. Repository roles
// (upstream's ids: 2 maintain, 4 write, 5 admin; a higher role counts), organization
// owners (OrganizationAdmin, on an organization's repository), users, members of a team
// (child teams included), apps through their installation tokens, and deploy keys.
// `always` and `exempt` bypass on pushes and merges, `pull_request` on merges only.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { ownsOrganization } from '../orgs/orgs.service.ts';
import { requireOrganizationById } from '../orgs/organizations.service.ts';
import * as teams from '../orgs/teams.service.ts';
import { roleAtLeast, type Repo, type Role } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import type { BypassActor, BypassMode, Ruleset } from './rulesets.model.ts';

// The built-in roles' ids as upstream's bypass lists carry them. GitHub's REST and GraphQL
// descriptions only say `actor_id` is the role's id; the table is GitHub's own Terraform
// provider's (integrations/terraform-provider-github, website/docs/r/repository_ruleset
// .html.markdown, "bypass_actors": maintain 2, write 4, admin 5; OrganizationAdmin 1).
// Read and triage have no documented id and cannot be bypass actors upstream.
const ROLE_IDS: Record<number, Role> = { 2: 'maintain', 4: 'push', 5: 'admin' };
/** The same roles by upstream's names (GraphQL's repositoryRoleName). */
export const ROLE_NAMES: Readonly<Record<number, string>> = { 2: 'maintain', 4: 'write', 5: 'admin' };

/** What upstream's current_user_can_bypass says. */
export type CanBypass = 'always' | 'pull_requests_only' | 'never' | 'exempt';

/** What one caller is, as bypass lists name actors; read once per request. */
export interface BypassSubject {
  userId: number | null;
  appId: number | null;
  deployKey: boolean;
  role: Role | null;
  orgOwner: boolean;
}

export async function subjectOf(ctx: AppContext, actor: Actor, repo: Repo): Promise<BypassSubject> {
  const role = actor.user || actor.deployKey ? (await repos.accessTo(ctx, actor, repo)).role : null;
  const orgOwner = repo.owner.type === 'Organization' && actor.user !== null
    && (await ownsOrganization(ctx, actor, await requireOrganizationById(ctx, repo.ownerId)));
  return {
    userId: actor.deployKey || actor.method === 'installation' ? null : actor.user?.id ?? null,
    appId: actor.method === 'installation' ? actor.integration?.appId ?? null : null,
    deployKey: Boolean(actor.deployKey),
    role, orgOwner,
  };
}

async function names(ctx: AppContext, s: BypassSubject, repo: Repo, a: BypassActor): Promise<boolean> {
  switch (a.actorType) {
    case 'RepositoryRole': {
      const needed = a.actorId === null ? undefined : ROLE_IDS[a.actorId];
      return needed !== undefined && !s.deployKey && roleAtLeast(s.role, needed);
    }
    case 'OrganizationAdmin': return s.orgOwner;
    case 'User': return s.userId !== null && s.userId === a.actorId;
    case 'Integration': return s.appId !== null && s.appId === a.actorId;
    case 'DeployKey': return s.deployKey;
    case 'Team':
      return s.userId !== null && a.actorId !== null && repo.owner.type === 'Organization'
        && (await teams.teamMemberIds(ctx, { orgId: repo.ownerId, teamId: a.actorId })).includes(s.userId);
  }
}

/** The widest bypass the subject holds on the ruleset, or null. */
export async function bypassOf(ctx: AppContext, s: BypassSubject, repo: Repo, rs: Ruleset): Promise<BypassMode | null> {
  let best: BypassMode | null = null;
  const rank: Record<BypassMode, number> = { pull_request: 1, always: 2, exempt: 3 };
  for (const a of rs.bypassActors) {
    if ((best === null || rank[a.bypassMode] > rank[best]) && (await names(ctx, s, repo, a))) best = a.bypassMode;
  }
  return best;
}

export const bypassesPushes = (m: BypassMode | null): boolean => m === 'always' || m === 'exempt';

export function canBypassWord(m: BypassMode | null): CanBypass {
  if (m === null) return 'never';
  return m === 'pull_request' ? 'pull_requests_only' : m;
}
