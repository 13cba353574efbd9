// What the issues module does when other areas record events, inside the recording
// transaction: every new repository gets upstream's default labels (repository
// `created`, which creation, template generation and forks all record), and a pushed
// commit whose message mentions #N of the repository adds a `referenced` event to
// issue N's timeline.
import type { AppContext } from '../../context.ts';
import { nowIso } from '../../domain/clock.ts';
import type { DomainEvent } from '../../events/outbox.ts';
import * as repos from '../repos/repos.service.ts';
import * as users from '../users/users.service.ts';
import * as eventStore from './issue-events.store.ts';
import * as store from './issues.store.ts';
import { addDefaultLabels } from './labels.service.ts';

/** The push payload's commits: webhook-shaped (`id`) or summary-shaped (`sha`). */
interface PushedCommit {
  id?: string;
  sha?: string;
  message: string;
  author?: { email?: string };
}

interface PushPayload {
  ref?: string;
  deleted?: boolean;
  commits?: PushedCommit[];
}

/** #N, or owner/repo#N naming this repository, outside words (so "a#1" and e-mail-like text stay text). */
const REFERENCE = /(?:^|[^\w`@#/.-])(?:([a-zA-Z0-9][\w-]{0,38})\/([\w.-]{1,100}))?#(\d{1,10})\b/g;

export function referencedNumbers(message: string, owner: string, name: string): number[] {
  const out = new Set<number>();
  for (const m of message.matchAll(REFERENCE)) {
    if (m[1] !== undefined && (m[1].toLowerCase() !== owner.toLowerCase() || m[2]!.toLowerCase() !== name.toLowerCase())) continue;
    out.add(Number(m[3]));
  }
  return [...out];
}

async function onPush(ctx: AppContext, e: DomainEvent): Promise<void> {
  const p = e.payload as PushPayload;
  if (p.deleted || !p.ref?.startsWith('refs/heads/') || !p.commits?.length || e.repositoryId == null) return;
  const [repo] = await repos.reposByIds(ctx, [e.repositoryId]);
  if (!repo) return;
  const wanted = p.commits.map((c) => ({ c, numbers: referencedNumbers(c.message, repo.owner.login, repo.name) })).filter((x) => x.numbers.length);
  if (!wanted.length) return;
  const issues = await store.findByNumbers(ctx.db, repo.id, wanted.flatMap((x) => x.numbers));
  if (!issues.length) return;
  const byNumber = new Map(issues.map((i) => [i.number, i]));
  // The commit's author is the actor when an account owns the address; the pusher otherwise.
  const authors = await users.accountsByEmails(ctx, wanted.flatMap((x) => (x.c.author?.email ? [x.c.author.email] : [])));
  const rows: eventStore.NewEvent[] = [];
  for (const { c, numbers } of wanted) {
    const actorId = (c.author?.email ? authors.get(c.author.email.toLowerCase()) ?? authors.get(c.author.email) : undefined)?.id ?? e.actorId ?? null;
    const sha = c.id ?? c.sha;
    if (!sha) continue;
    for (const n of numbers) {
      const issue = byNumber.get(n);
      if (!issue || await eventStore.hasReference(ctx.db, issue.id, sha)) continue;
      rows.push({ repositoryId: repo.id, issueId: issue.id, actorId, event: 'referenced', commitId: sha });
    }
  }
  await eventStore.insertMany(ctx.db, rows, nowIso(ctx.clock));
}

export async function onEvent(ctx: AppContext, e: DomainEvent): Promise<void> {
  if (e.event === 'repository' && e.action === 'created' && e.repositoryId != null) await addDefaultLabels(ctx, e.repositoryId);
  else if (e.event === 'push') await onPush(ctx, e);
}
