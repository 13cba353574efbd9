// Milestones: the list (open and closed tabs, the API's orders) with each milestone's
// progress and due date, and one milestone at its html_url with its issues and pull
// requests. Progress counts pull requests too, as the API's open_issues/closed_issues do.
import type { Account } from '../users/users.model.ts';
import type { LabelRecord, MilestoneCounts, MilestoneRecord } from '../issues/issues.model.ts';
import type { Repo } from '../repos/repos.model.ts';
import { issuePath } from './issues.pages.ts';
import { MILESTONE_SORTS, type MilestoneEntry, type MilestonesView, type MilestoneSort, type MilestoneView } from './milestones.service.ts';
import { pager, repoHeader, repoPath } from './repo.layout.ts';
import { PER_PAGE } from './web.service.ts';
import { stateButton } from './milestone-forms.pages.ts';
import { fragment, h, renderPage, time, trustedHtml, type Frame, type ReactNode } from './web.render.ts';

export function milestonePath(repo: Repo, number: number): string {
  return repoPath(repo, 'milestone', number);
}

/** Whole percent done, rounded down as upstream shows it (100 only when nothing is left open). */
export function percentDone(c: MilestoneCounts): number {
  const all = c.open + c.closed;
  return all === 0 ? 0 : Math.floor((c.closed * 100) / all);
}

/** Labels · Milestones: the issues' two side lists link to each other. */
function issuesNav(repo: Repo): ReactNode {
  return h('nav', { 'aria-label': 'Labels and milestones', className: 'toolbar' },
    h('ul', { className: 'filters' },
      h('li', { key: 'labels' }, h('a', { href: repoPath(repo, 'labels') }, 'Labels')),
      h('li', { key: 'milestones' }, h('a', { href: repoPath(repo, 'milestones'), 'aria-current': 'page' }, 'Milestones'))));
}

/** Due by a date, past due (an open milestone whose day has gone), closed on a date, or no due date. */
function dueLine(m: MilestoneRecord, now: number): ReactNode {
  if (m.state === 'closed' && m.closedAt) return fragment('Closed ', time(m.closedAt));
  if (!m.dueOn) return 'No due date';
  if (Date.parse(m.dueOn) < now) return fragment(h('span', { className: 'badge warn past-due' }, 'Past due'), ' by ', time(m.dueOn));
  return fragment('Due by ', time(m.dueOn));
}

function progress(repo: Repo, m: MilestoneRecord, c: MilestoneCounts): ReactNode {
  const pct = percentDone(c);
  const id = `progress-${m.number}`;
  return h('div', { className: 'milestone-progress' },
    h('progress', { id, max: 100, value: pct, 'aria-label': `${m.title}: ${pct}% complete` }, `${pct}%`),
    h('div', { className: 'muted' },
      h('strong', { className: 'percent' }, `${pct}%`), ' complete · ',
      h('a', { href: milestonePath(repo, m.number), className: 'open-count' }, `${c.open} open`), ' · ',
      h('a', { href: `${milestonePath(repo, m.number)}?closed=1`, className: 'closed-count' }, `${c.closed} closed`)));
}

function milestoneRow(repo: Repo, e: MilestoneEntry, now: number): ReactNode {
  const m = e.milestone;
  return h('li', { key: m.id, className: 'row milestone', 'data-milestone': m.number },
    h('div', null,
      h('a', { href: milestonePath(repo, m.number), className: 'title' }, m.title),
      h('div', { className: 'muted due' }, dueLine(m, now), ' · Last updated ', time(m.updatedAt)),
      e.html ? trustedHtml('div', { className: 'markdown-body' }, e.html) : null),
    progress(repo, m, e.counts));
}

/** The API's orders as links, in a disclosure widget (no script, keyboard reachable). */
function sortMenu(v: MilestonesView): ReactNode {
  const base = repoPath(v.repo, 'milestones');
  const at = (key: MilestoneSort) => {
    const [sort, direction] = key.split('-') as [string, string];
    return `${base}?${new URLSearchParams({ state: v.state, sort, direction })}`;
  };
  return h('details', { className: 'switcher', id: 'milestone-sort' },
    h('summary', null, h('span', { className: 'muted' }, 'Sort: '), h('strong', null, MILESTONE_SORTS[v.sort].label)),
    h('div', { className: 'menu' }, h('ul', null, ...(Object.keys(MILESTONE_SORTS) as MilestoneSort[]).map((key) => h('li', { key },
      h('a', { href: at(key), ...(key === v.sort ? { 'aria-current': 'true' } : {}) }, MILESTONE_SORTS[key].label))))));
}

export function milestonesPage(frame: Frame, v: MilestonesView, now = Date.now()): string {
  const base = repoPath(v.repo, 'milestones');
  const [sort, direction] = v.sort.split('-') as [string, string];
  const tab = (state: 'open' | 'closed', count: number, label: string) => h('li', { key: state },
    h('a', { href: `${base}?${new URLSearchParams({ state, sort, direction })}`, id: `milestones-${state}`, ...(v.state === state ? { 'aria-current': 'page' } : {}) }, `${count} ${label}`));
  return renderPage(frame, fragment(repoHeader(v.repo, 'issues'),
    issuesNav(v.repo),
    h('div', { className: 'toolbar' },
      h('nav', { 'aria-label': 'Milestone state' }, h('ul', { className: 'filters' }, tab('open', v.openCount, 'Open'), tab('closed', v.closedCount, 'Closed'))),
      sortMenu(v),
      v.canEdit ? h('a', { className: 'button', href: repoPath(v.repo, 'milestones', 'new'), id: 'new-milestone' }, 'New milestone') : null),
    v.entries.length
      ? h('ul', { className: 'list box', id: 'milestones' }, ...v.entries.map((e) => milestoneRow(v.repo, e, now)))
      : h('p', { className: 'box' }, v.state === 'open' ? 'There are no open milestones.' : 'There are no closed milestones.'),
    pager(base, v.page, v.state === 'open' ? v.openCount : v.closedCount, PER_PAGE, { state: v.state, sort, direction })));
}

function login(people: Map<number, Account>, id: number): ReactNode {
  const a = people.get(id);
  return a ? h('a', { href: `/${encodeURIComponent(a.login)}` }, a.login) : 'ghost';
}

function labelList(labels: readonly LabelRecord[]): ReactNode {
  if (!labels.length) return null;
  return h('ul', { className: 'labels', 'aria-label': 'Labels' }, ...labels.map((l) => h('li', { key: l.id, className: 'label' }, l.name)));
}

export function milestonePage(frame: Frame, v: MilestoneView, now = Date.now()): string {
  const m = v.entry.milestone;
  const base = milestonePath(v.repo, m.number);
  const tab = (state: 'open' | 'closed', count: number, label: string) => h('li', { key: state },
    h('a', { href: state === 'open' ? base : `${base}?closed=1`, id: `milestone-${state}`, ...(v.state === state ? { 'aria-current': 'page' } : {}) }, `${count} ${label}`));
  return renderPage(frame, fragment(repoHeader(v.repo, 'issues'),
    h('p', null, h('a', { href: repoPath(v.repo, 'milestones'), id: 'all-milestones' }, 'Milestones'), ' · ',
      h('a', { href: `${repoPath(v.repo, 'issues')}?${new URLSearchParams({ state: v.state, milestone: String(m.number) })}`, id: 'milestone-in-issues' }, 'In the issue list')),
    h('section', { className: 'box', 'aria-labelledby': 'milestone-title' },
      h('h2', { id: 'milestone-title' }, m.title,
        h('span', { className: `badge state-${m.state}`, id: 'milestone-state' }, m.state === 'open' ? 'Open' : 'Closed')),
      h('div', { className: 'muted due' }, dueLine(m, now)),
      v.entry.html ? trustedHtml('div', { className: 'markdown-body' }, v.entry.html) : null,
      progress(v.repo, m, v.entry.counts),
      v.canEdit ? h('p', { className: 'toolbar' },
        h('a', { className: 'button', href: repoPath(v.repo, 'milestones', m.number, 'edit'), id: 'edit-milestone' }, 'Edit'),
        stateButton(frame, v.repo, m)) : null),
    h('nav', { 'aria-label': 'Issue state' }, h('ul', { className: 'filters' },
      tab('open', v.entry.counts.open, 'Open'), tab('closed', v.entry.counts.closed, 'Closed'))),
    v.issues.items.length
      ? h('ul', { className: 'list box', id: 'milestone-issues' }, ...v.issues.items.map((i) => h('li', { key: i.id, className: 'row', 'data-number': i.number },
        h('div', null,
          h('a', { href: issuePath(v.repo, i), className: 'title' }, i.title),
          i.isPullRequest ? h('span', { className: 'badge' }, 'Pull request') : null,
          labelList(v.labels.get(i.id) ?? []),
          h('div', { className: 'muted' }, `#${i.number} opened `, time(i.createdAt), ' by ', login(v.authors, i.userId),
            i.state === 'closed' ? fragment(' · closed ', i.closedAt ? time(i.closedAt) : null) : '')))))
      : h('p', { className: 'box' }, v.state === 'open' ? 'No open issues or pull requests in this milestone.' : 'No closed issues or pull requests in this milestone.'),
    pager(base, v.page, v.issues.total, PER_PAGE, v.state === 'closed' ? { closed: '1' } : {})));
}
