// The reaction buttons under an issue, a pull request or a comment: one small form per
// subject with a button for each of the eight reactions (its count, pressed when the
// viewer left it); each button says whether it adds or takes back the reaction. Readers
// who are not signed in see the counts alone.
import type { ReactionContent } from '../reactions/reactions.rollup.ts';
import type { ReactionBar } from './reactions.service.ts';
import { flash, fragment, h, postForm, type Frame, type ReactNode } from './web.render.ts';

const FACES: Record<ReactionContent, [emoji: string, name: string]> = {
  '+1': ['👍', 'thumbs up'], '-1': ['👎', 'thumbs down'], laugh: ['😄', 'laugh'], confused: ['😕', 'confused'],
  heart: ['❤️', 'heart'], hooray: ['🎉', 'hooray'], rocket: ['🚀', 'rocket'], eyes: ['👀', 'eyes'],
};

/** Where a refused reaction's message shows: the id of the bar it was left on. */
export interface ReactionErrors {
  bar: string;
  errors: string[];
}

/** `action` is the address the form posts to; `id` names the bar (and the refusal shown in it). */
export function reactionBar(frame: Frame, action: string, id: string, bar: ReactionBar, canReact: boolean, refused?: ReactionErrors): ReactNode {
  const errors = refused?.bar === id ? flash('error', refused.errors) : null;
  if (!frame.user || !canReact) {
    // A refusal still shows where the button was (the repository was archived since the page was loaded).
    const shown = bar.filter((r) => r.count > 0);
    return fragment(errors, shown.length
      ? h('ul', { className: 'reactions', id, 'aria-label': 'Reactions' },
        ...shown.map((r) => h('li', { key: r.content, className: 'badge', 'data-content': r.content, 'aria-label': `${FACES[r.content][1]}: ${r.count}` },
          `${FACES[r.content][0]} ${r.count}`)))
      : null);
  }
  return postForm(frame, action, { className: 'reactions', id, 'aria-label': 'Reactions' },
    errors,
    ...bar.map((r) => h('button', {
      key: r.content, type: 'submit', name: 'reaction', value: `${r.content}:${r.mine ? 'remove' : 'add'}`,
      'aria-pressed': r.mine ? 'true' : 'false', 'data-content': r.content,
      'aria-label': `${FACES[r.content][1]}: ${r.count}${r.mine ? ', yours (take back)' : ''}`,
    }, `${FACES[r.content][0]} ${r.count}`)));
}
