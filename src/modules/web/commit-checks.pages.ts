// Beside a commit: its check runs (name, status or conclusion, app, a link to the
// details the app gave), and the small mark of a commit in a list (the rollup of its
// statuses and runs), as upstream shows them.
import type { CheckRunView } from '../checks/checks.schemas.ts';
import type { Mark } from './commit-checks.service.ts';
import { fragment, h, type ReactNode } from './web.render.ts';

const MARK_WORDS: Record<Mark, [symbol: string, words: string]> = {
  success: ['✓', 'All checks have passed'],
  failure: ['✗', 'Some checks were not successful'],
  pending: ['●', 'Some checks haven\'t completed yet'],
};

/** The mark of one commit of a list; nothing where nothing reported. */
export function statusMark(mark: Mark | undefined): ReactNode {
  if (!mark) return null;
  const [symbol, words] = MARK_WORDS[mark];
  return h('span', { className: `status-mark mark-${mark}`, 'data-mark': mark, title: words, role: 'img', 'aria-label': words }, symbol);
}

/** A run's outcome: its conclusion once completed, else its status. */
function outcome(run: CheckRunView): { text: string; badge: string } {
  if (run.status !== 'completed') return { text: run.status.replace('_', ' '), badge: '' };
  const c = run.conclusion ?? 'completed';
  return { text: c.replace('_', ' '), badge: c === 'success' || c === 'neutral' || c === 'skipped' ? 'ok' : 'warn' };
}

/** Only web addresses are links (a details_url is the app's to set). */
function safeUrl(url: string | null): string | null {
  return url && /^https?:\/\//i.test(url) ? url : null;
}

export function checksList(runs: readonly CheckRunView[], total: number): ReactNode {
  if (!runs.length) return null;
  return h('section', { className: 'box', 'aria-labelledby': 'checks-heading', id: 'checks' },
    h('h2', { id: 'checks-heading' }, `Checks (${total})`),
    h('ul', { className: 'list' }, ...runs.map((run) => {
      const o = outcome(run);
      const details = safeUrl(run.details_url);
      return h('li', { key: run.id, className: 'row check-run', 'data-check': run.name },
        h('div', null, h('strong', { className: 'check-name' }, run.name),
          run.app ? h('span', { className: 'muted check-app' }, ` — ${run.app.name}`) : null,
          run.output.title ? h('div', { className: 'muted' }, run.output.title) : null),
        h('div', null,
          h('span', { className: `badge ${o.badge} check-outcome`, 'data-status': run.status, 'data-conclusion': run.conclusion ?? '' }, o.text),
          details ? fragment(' ', h('a', { href: details, rel: 'nofollow noopener', className: 'check-details' }, 'Details')) : null));
    })),
    total > runs.length ? h('p', { className: 'muted' }, `The first ${runs.length} of ${total} check runs are shown.`) : null);
}
