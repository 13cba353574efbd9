// The PubSubHubbub hub (spec Events item 7): POST /hub subscribes a callback to one
// event of a repository, named by the topic {html_url}/events/{event}[.json]. A
// subscription is a repository hook (same access rules, delivery worker, signatures and
// address guard); a callback already hooked gains the event, and unsubscribing takes
// the event away, removing the hook when it has none left.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { ValidationError } from '../../domain/errors.ts';
import type { ContentType } from './hooks.model.ts';
import { createHook, removeHook, repositoryTarget, updateHook } from './hooks.service.ts';
import * as store from './hooks.store.ts';

export interface HubInput {
  'hub.mode'?: unknown;
  'hub.topic'?: unknown;
  'hub.callback'?: unknown;
  'hub.secret'?: unknown;
}

interface Topic {
  owner: string;
  name: string;
  event: string;
  json: boolean;
}

const MODES = ['subscribe', 'unsubscribe'] as const;

function unprocessable(message: string): ValidationError {
  return new ValidationError([], message);
}

/** {html base}/{owner}/{repo}/events/{event}, optionally with .json; null for anything else. */
export function parseTopic(ctx: AppContext, topic: string): Topic | null {
  const base = ctx.urls.html().replace(/\/+$/, '');
  if (!topic.startsWith(`${base}/`)) return null;
  const m = /^([a-zA-Z0-9][\w-]{0,38})\/([\w.-]{1,100})\/events\/([a-z][a-z0-9_]*?)(\.json)?$/.exec(topic.slice(base.length + 1));
  return m ? { owner: m[1]!, name: m[2]!, event: m[3]!, json: m[4] !== undefined } : null;
}

export async function hubRequest(ctx: AppContext, actor: Actor, input: HubInput, acceptsJson: boolean): Promise<void> {
  const mode = input['hub.mode'];
  if (typeof mode !== 'string' || !MODES.includes(mode as never)) throw unprocessable(`Invalid hub.mode: ${JSON.stringify(mode ?? null)}`);
  const rawTopic = input['hub.topic'];
  const topic = typeof rawTopic === 'string' ? parseTopic(ctx, rawTopic) : null;
  if (!topic) throw unprocessable(`Invalid topic: ${JSON.stringify(rawTopic ?? null)}`);
  const callback = input['hub.callback'];
  if (typeof callback !== 'string' || callback === '') throw unprocessable('Invalid hub.callback');
  const secret = input['hub.secret'];
  if (secret !== undefined && typeof secret !== 'string') throw unprocessable('Invalid hub.secret');
  // Who may subscribe: whoever may manage the repository's hooks (admin, hook scopes).
  const owner = await repositoryTarget(ctx, actor, topic.owner, topic.name, true);
  const existing = (await store.findByUrl(ctx.db, { scope: 'repository', targetId: owner.targetId }, callback))[0];
  if (mode === 'unsubscribe') {
    if (!existing) return;
    const events = existing.events.filter((e) => e !== topic.event);
    if (events.length === existing.events.length) return;
    if (events.length) await updateHook(ctx, owner, existing.id, { events });
    else await removeHook(ctx, owner, existing.id);
    return;
  }
  // Upstream's default for the hub is the form payload; `.json` or Accept: JSON asks for JSON.
  const contentType: ContentType = topic.json || acceptsJson ? 'json' : 'form';
  const config = { url: callback, content_type: contentType, ...(secret ? { secret } : {}) };
  if (existing) {
    const events = existing.events.includes(topic.event) || existing.events.includes('*') ? existing.events : [...existing.events, topic.event];
    await updateHook(ctx, owner, existing.id, { events, config });
  } else {
    await createHook(ctx, actor, owner, { events: [topic.event], config });
  }
}
