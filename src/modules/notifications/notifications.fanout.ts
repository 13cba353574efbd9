// Notification fan-out: inside the transaction that records an event, decide who hears
// of it and with which reason, and write their threads and participation.
//
// Rules (issue #4 §5, spec Notification thread):
// - the actor never hears of their own action;
// - told directly: @mentioned users (mention), members of @mentioned teams
//   (team_mention), requested reviewers (review_requested), assignees (assign), the
//   invitee of a repository invitation (invitation);
// - on new activity (opened, comment, review) participants hear with the reason they
//   take part for (author, comment, assign, mention, manual …), watchers with
//   subscribed; on close, reopen and merge participants hear with state_change;
// - one reason per user and event: the most specific one wins;
// - a user ignoring the repository hears nothing from it; one ignoring the thread
//   hears nothing of it until @mentioned (upstream: "until you comment on the thread
//   or get an @mention"); a private repository's news reach only those who may read it.
import type { AppContext } from '../../context.ts';
import { userActor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import type { DomainEvent } from '../../events/outbox.ts';
import * as orgs from '../orgs/orgs.service.ts';
import * as repos from '../repos/repos.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as watching from '../repos/repos.watching.ts';
import * as users from '../users/users.service.ts';
import { activityOf, type Activity } from './notifications.activity.ts';
import type { Reason, ThreadSubscription } from './notifications.model.ts';
import * as store from './notifications.store.ts';

/** Which reason wins when one event concerns a user in several ways. */
const RANK: Record<Reason, number> = {
  mention: 9, team_mention: 8, review_requested: 7, assign: 6, invitation: 6, state_change: 5,
  author: 4, comment: 4, manual: 4, ci_activity: 3, security_alert: 3, subscribed: 1,
};

/** Reasons that make the user a participant of the thread from then on. */
const PARTICIPATION: ReadonlySet<Reason> = new Set<Reason>(['mention', 'team_mention', 'review_requested', 'assign']);

class Recipients {
  readonly reasons = new Map<number, Reason>();
  offer(userId: number, reason: Reason): void {
    const current = this.reasons.get(userId);
    if (!current || RANK[reason] > RANK[current]) this.reasons.set(userId, reason);
  }
}

async function mentionedUserIds(ctx: AppContext, logins: readonly string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const login of logins) {
    const account = await users.findAccount(ctx, login);
    if (account?.type === 'User') ids.push(account.id);
  }
  return ids;
}

async function mentionedTeamMemberIds(ctx: AppContext, teams: Activity['mentions']['teams']): Promise<number[]> {
  const ids: number[] = [];
  for (const t of teams) ids.push(...await orgs.teamMemberIds(ctx, { org: t.org, teamSlug: t.team }));
  return ids;
}

/** Those of `userIds` who may read the repository, judged by the one permission model. */
async function readersOf(ctx: AppContext, repo: Repo, userIds: readonly number[]): Promise<Set<number>> {
  // Everyone reads a public repository and every signed-in user an internal one.
  if (repo.visibility !== 'private') return new Set(userIds);
  const accounts = await users.accountsByIds(ctx, userIds);
  const out = new Set<number>();
  for (const id of userIds) {
    const a = accounts.get(id);
    if (!a || a.type !== 'User' || a.suspendedAt) continue;
    // The user as a full-scoped caller: what counts is their role, not a token's scopes.
    const actor = userActor({ id: a.id, login: a.login, siteAdmin: a.siteAdmin }, 'token', 0, ['repo'], '');
    if ((await repos.accessTo(ctx, actor, repo)).effective !== null) out.add(id);
  }
  return out;
}

async function deliver(ctx: AppContext, a: Activity): Promise<void> {
  const [repo] = await repos.reposByIds(ctx, [a.subject.repositoryId]);
  if (!repo) return;
  const title = a.invitedBy !== undefined ? `Invitation to join ${repo.owner.login}/${repo.name} from ${a.invitedBy}` : a.title;
  if (!a.isNew) await store.refreshSubject(ctx.db, a.subject, title);

  const subscriptions = new Map<number, ThreadSubscription>(
    (await store.subscriptionsOf(ctx.db, a.subject)).map((s) => [s.userId, s]),
  );
  const recipients = new Recipients();
  for (const t of a.targets) {
    if (t.kind === 'user') recipients.offer(t.id, t.reason);
    else for (const id of await orgs.teamMemberIds(ctx, { orgId: t.orgId, teamId: t.teamId })) recipients.offer(id, t.reason);
  }
  for (const id of await mentionedUserIds(ctx, a.mentions.logins)) recipients.offer(id, 'mention');
  for (const id of await mentionedTeamMemberIds(ctx, a.mentions.teams)) recipients.offer(id, 'team_mention');

  // Most events (labels, edits) tell nobody: spare them the watchers' query.
  const repoSubscriptions = a.broadcast === 'none' && recipients.reasons.size === 0
    ? [] : await watching.subscriptionsOfRepository(ctx, repo.id);
  if (a.broadcast !== 'none') {
    const asParticipant = (own: Reason): Reason => (a.broadcast === 'state_change' ? 'state_change' : own);
    for (const s of subscriptions.values()) if (s.subscribed) recipients.offer(s.userId, asParticipant(s.reason ?? 'manual'));
    // Unsubscribing (a row neither subscribed nor ignoring) ends implicit participation too.
    for (const p of a.implicitParticipants) if (!subscriptions.has(p.id)) recipients.offer(p.id, asParticipant(p.reason));
    for (const s of repoSubscriptions) if (s.subscribed) recipients.offer(s.userId, 'subscribed');
  }

  const ignoringRepo = new Set(repoSubscriptions.filter((s) => s.ignored).map((s) => s.userId));
  const candidates = [...recipients.reasons].filter(([userId, reason]) => {
    if (userId === a.actorId || ignoringRepo.has(userId)) return false;
    // An @mention brings an ignored thread back (upstream); nothing else does.
    return !subscriptions.get(userId)?.ignored || reason === 'mention';
  });
  const readers = a.bypassAccess ? null : await readersOf(ctx, repo, candidates.map(([id]) => id));
  const now = nowIso(ctx.clock);
  for (const [userId, reason] of candidates) {
    if (readers && !readers.has(userId)) continue;
    await store.notify(ctx.db, { userId, subject: a.subject, title, reason, latestComment: a.latestComment, now });
    const own = subscriptions.get(userId);
    if (PARTICIPATION.has(reason) && !own?.subscribed) {
      await store.putSubscription(ctx.db, { userId, subject: a.subject, subscribed: true, ignored: false, reason, now });
    }
  }
  // Taking part (opening, commenting, reviewing) subscribes the actor, and ends their ignoring.
  if (a.actorTakesPart && a.actorId !== null && !subscriptions.get(a.actorId)?.subscribed) {
    await store.putSubscription(ctx.db, {
      userId: a.actorId, subject: a.subject, subscribed: true, ignored: false, reason: a.actorTakesPart, now,
    });
  }
}

export async function onEvent(ctx: AppContext, e: DomainEvent): Promise<void> {
  const activity = activityOf(e);
  if (activity) await deliver(ctx, activity);
}

