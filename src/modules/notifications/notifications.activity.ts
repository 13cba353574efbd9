// What an event means for notifications, read from its payload (the keys of the
// published webhook payloads: issues, issue_comment, pull_request, pull_request_review,
// pull_request_review_comment; and Wharf's own repository_invitation). Pure: the
// fan-out resolves logins, teams, watchers and access afterwards.
import type { DomainEvent } from '../../events/outbox.ts';
import { addedMentions, mentionsIn, NO_MENTIONS, type Mentions } from './notifications.mentions.ts';
import type { LatestComment, Reason, SubjectRef } from './notifications.model.ts';

export type Target =
  | { kind: 'user'; id: number; reason: Reason }
  | { kind: 'team'; orgId: number; teamId: number; reason: Reason };

export interface Activity {
  subject: SubjectRef;
  title: string;
  actorId: number | null;
  /** undefined: the threads keep the latest comment they have. */
  latestComment?: LatestComment | null;
  /** Told directly, whatever their participation. */
  targets: Target[];
  /** @login and @org/team mentions to tell (mention, team_mention). */
  mentions: Mentions;
  /** The actor takes part in the thread from now on, with this reason. */
  actorTakesPart: Reason | null;
  /** Participants by the subject itself (author, assignees, requested reviewers) when they have no subscription. */
  implicitParticipants: { id: number; reason: Reason }[];
  /**
   * Who else hears of it: nobody; participants (with their own reason) and watchers;
   * or participants with state_change and watchers.
   */
  broadcast: 'none' | 'activity' | 'state_change';
  /** Told even if they cannot read the repository (a repository invitation). */
  bypassAccess: boolean;
  /** A repository invitation's inviter: the title names them and the repository. */
  invitedBy?: string;
  /** The subject is new: no thread can have an old title to refresh. */
  isNew?: boolean;
}

type Json = Record<string, unknown>;

function obj(v: unknown): Json | null {
  return v && typeof v === 'object' && !Array.isArray(v) ? v as Json : null;
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isInteger(v) ? v : null;
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

function idOf(v: unknown): number | null {
  return num(obj(v)?.id);
}

function idsOf(v: unknown): number[] {
  return Array.isArray(v) ? v.map(idOf).filter((id): id is number => id !== null) : [];
}

/** Issue or pull request view → its subject; a pull request's issue view carries `pull_request`. */
function subjectOf(repositoryId: number, view: Json, isPull: boolean): { subject: SubjectRef; title: string } | null {
  const number = num(view.number);
  if (number === null) return null;
  return {
    subject: { repositoryId, type: isPull || obj(view.pull_request) ? 'PullRequest' : 'Issue', key: number },
    title: str(view.title) ?? '',
  };
}

function participantsOf(view: Json): { id: number; reason: Reason }[] {
  const author = idOf(view.user);
  return [
    ...(author === null ? [] : [{ id: author, reason: 'author' as const }]),
    ...idsOf(view.assignees).map((id) => ({ id, reason: 'assign' as const })),
    ...idsOf(view.requested_reviewers).map((id) => ({ id, reason: 'review_requested' as const })),
  ];
}

/** Who a new issue or pull request tells directly: assignees and requested reviewers. */
function openingTargets(view: Json, orgId: number | null): Target[] {
  const teams = orgId === null ? [] : idsOf(view.requested_teams).map((teamId) => ({ kind: 'team' as const, orgId, teamId, reason: 'review_requested' as const }));
  return [
    ...idsOf(view.assignees).map((id) => ({ kind: 'user' as const, id, reason: 'assign' as const })),
    ...idsOf(view.requested_reviewers).map((id) => ({ kind: 'user' as const, id, reason: 'review_requested' as const })),
    ...teams,
  ];
}

/** The previous body of an edit, when the body changed. */
function previousBody(payload: Json): string | null | undefined {
  const body = obj(obj(payload.changes)?.body);
  return body ? str(body.from) : undefined;
}

const QUIET: Pick<Activity, 'targets' | 'mentions' | 'actorTakesPart' | 'implicitParticipants' | 'broadcast' | 'bypassAccess'> = {
  targets: [], mentions: NO_MENTIONS, actorTakesPart: null, implicitParticipants: [], broadcast: 'none', bypassAccess: false,
};

/** The issue or pull request itself changed (issues, pull_request events). */
function subjectEvent(e: DomainEvent, repositoryId: number, view: Json, isPull: boolean): Activity | null {
  const s = subjectOf(repositoryId, view, isPull);
  if (!s) return null;
  const base: Activity = { ...s, actorId: e.actorId ?? null, ...QUIET, implicitParticipants: participantsOf(view) };
  const payload = e.payload;
  switch (e.action) {
    case 'opened':
      return {
        ...base, isNew: true, latestComment: null, targets: openingTargets(view, e.organizationId ?? null),
        mentions: mentionsIn(str(view.body)), actorTakesPart: 'author', broadcast: 'activity',
      };
    case 'edited': {
      const before = previousBody(payload);
      return before === undefined ? base : { ...base, mentions: addedMentions(str(view.body), before) };
    }
    case 'closed':
    case 'reopened':
      return { ...base, broadcast: 'state_change' };
    case 'assigned': {
      const id = idOf(payload.assignee);
      return { ...base, targets: id === null ? [] : [{ kind: 'user', id, reason: 'assign' }] };
    }
    case 'review_requested': {
      const id = idOf(payload.requested_reviewer);
      const teamId = idOf(payload.requested_team);
      const orgId = e.organizationId ?? null;
      const targets: Target[] = [
        ...(id === null ? [] : [{ kind: 'user' as const, id, reason: 'review_requested' as const }]),
        ...(teamId === null || orgId === null ? [] : [{ kind: 'team' as const, orgId, teamId, reason: 'review_requested' as const }]),
      ];
      return { ...base, targets };
    }
    default:
      // Labels, milestones, locks, title edits …: the threads only learn the current title.
      return base;
  }
}

/** A comment, review or review comment on an issue or pull request. */
function commentEvent(e: DomainEvent, repositoryId: number, view: Json, isPull: boolean, comment: Json, kind: LatestComment['kind']): Activity | null {
  const s = subjectOf(repositoryId, view, isPull);
  const id = num(comment.id);
  if (!s || id === null) return null;
  const base: Activity = { ...s, actorId: e.actorId ?? null, ...QUIET, implicitParticipants: participantsOf(view) };
  const created = kind === 'review' ? e.action === 'submitted' : e.action === 'created';
  if (created) {
    return {
      ...base, latestComment: { kind, id }, mentions: mentionsIn(str(comment.body)), actorTakesPart: 'comment', broadcast: 'activity',
    };
  }
  if (e.action === 'edited') {
    const before = previousBody(e.payload);
    return before === undefined ? base : { ...base, mentions: addedMentions(str(comment.body), before) };
  }
  return base;
}

function invitationEvent(e: DomainEvent, repositoryId: number): Activity | null {
  const invitation = obj(e.payload.invitation);
  const id = num(invitation?.id);
  const invitee = idOf(invitation?.invitee);
  if (!invitation || id === null || invitee === null) return null;
  return {
    subject: { repositoryId, type: 'RepositoryInvitation', key: id },
    title: '',
    invitedBy: str(obj(invitation.inviter)?.login) ?? '',
    actorId: e.actorId ?? null,
    ...QUIET,
    latestComment: null,
    targets: [{ kind: 'user', id: invitee, reason: 'invitation' }],
    bypassAccess: true,
    isNew: true,
  };
}

/** null: the event tells nobody anything. */
export function activityOf(e: DomainEvent): Activity | null {
  const repositoryId = e.repositoryId ?? null;
  if (repositoryId === null) return null;
  const p = e.payload;
  switch (e.event) {
    case 'issues': {
      const issue = obj(p.issue);
      return issue ? subjectEvent(e, repositoryId, issue, false) : null;
    }
    case 'pull_request': {
      const pull = obj(p.pull_request);
      return pull ? subjectEvent(e, repositoryId, pull, true) : null;
    }
    case 'issue_comment': {
      const issue = obj(p.issue);
      const comment = obj(p.comment);
      return issue && comment ? commentEvent(e, repositoryId, issue, false, comment, 'issue_comment') : null;
    }
    case 'pull_request_review': {
      const pull = obj(p.pull_request);
      const review = obj(p.review);
      return pull && review ? commentEvent(e, repositoryId, pull, true, review, 'review') : null;
    }
    case 'pull_request_review_comment': {
      const pull = obj(p.pull_request);
      const comment = obj(p.comment);
      return pull && comment ? commentEvent(e, repositoryId, pull, true, comment, 'review_comment') : null;
    }
    case 'repository_invitation':
      return e.action === 'created' ? invitationEvent(e, repositoryId) : null;
    default:
      return null;
  }
}
