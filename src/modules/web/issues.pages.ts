// Issues: the list with the API's state and label filters, one issue with its
// conversation and the comment form, and the new-issue form. Forms post without a
// script, carry the CSRF token, and come back with errors inline.
import type { Account } from '../users/users.model.ts';
import type { IssueRecord, LabelRecord } from '../issues/issues.model.ts';
import type { Repo } from '../repos/repos.model.ts';
import { pager, repoHeader, repoPath } from './repo.layout.ts';
import type { IssueListView, IssueView, Rendered } from './conversations.service.ts';
import type { LabelPageOf } from '../issues/labels.service.ts';
import { reactionBar, type ReactionErrors } from './reactions.pages.ts';
import { PER_PAGE } from './web.service.ts';
import { flash, fragment, h, postForm, renderPage, time, trustedHtml, type Frame, type ReactNode } from './web.render.ts';

export function issuePath(repo: Repo, i: Pick<IssueRecord, 'isPullRequest' | 'number'>): string {
  return repoPath(repo, i.isPullRequest ? 'pull' : 'issues', i.number);
}

function login(people: Map<number, Account>, id: number): ReactNode {
  const a = people.get(id);
  return a ? h('a', { href: `/${encodeURIComponent(a.login)}` }, a.login) : 'ghost';
}

export function stateBadge(i: IssueRecord, merged = false): ReactNode {
  const label = merged ? 'Merged' : i.state === 'open' ? 'Open' : 'Closed';
  return h('span', { className: `badge state-${label.toLowerCase()}`, id: 'issue-state' }, label);
}

function labelList(labels: readonly LabelRecord[]): ReactNode {
  if (!labels.length) return null;
  return h('ul', { className: 'labels', 'aria-label': 'Labels' }, ...labels.map((l) => h('li', { key: l.id, className: 'label' }, l.name)));
}

export function issuesPage(frame: Frame, v: IssueListView): string {
  const base = repoPath(v.repo, 'issues');
  const withoutMilestone = { state: v.filter.state, ...(v.filter.labels ? { labels: v.filter.labels } : {}) };
  const query = { ...withoutMilestone, ...(v.filter.milestone ? { milestone: v.filter.milestone } : {}) };
  const stateLink = (state: 'open' | 'closed' | 'all', label: string) => h('li', { key: state },
    h('a', { href: `${base}?${new URLSearchParams({ ...query, state })}`, ...(v.filter.state === state ? { 'aria-current': 'page' } : {}) }, label));
  return renderPage(frame, fragment(repoHeader(v.repo, 'issues'),
    h('div', { className: 'toolbar' },
      h('nav', { 'aria-label': 'Issue state' }, h('ul', { className: 'filters' }, stateLink('open', 'Open'), stateLink('closed', 'Closed'), stateLink('all', 'All'))),
      h('form', { method: 'get', action: base, className: 'filter-form' },
        h('input', { type: 'hidden', name: 'state', value: v.filter.state }),
        v.filter.milestone ? h('input', { type: 'hidden', name: 'milestone', value: v.filter.milestone }) : null,
        h('label', { htmlFor: 'labels-filter' }, 'Labels'),
        h('input', { type: 'text', id: 'labels-filter', name: 'labels', defaultValue: v.filter.labels, placeholder: 'bug,help wanted' }),
        h('button', { type: 'submit', className: 'secondary' }, 'Filter')),
      h('a', { href: repoPath(v.repo, 'labels') }, 'Labels'),
      h('a', { href: repoPath(v.repo, 'milestones'), id: 'milestones-link' }, 'Milestones'),
      frame.user ? h('a', { className: 'button', href: repoPath(v.repo, 'issues', 'new'), id: 'new-issue' }, 'New issue') : null),
    v.filter.milestone ? h('p', { className: 'muted', id: 'milestone-filter' }, 'In milestone ',
      /^\d+$/.test(v.filter.milestone) ? h('a', { href: repoPath(v.repo, 'milestone', v.filter.milestone) }, `#${v.filter.milestone}`) : h('code', null, v.filter.milestone),
      ' · ', h('a', { href: `${base}?${new URLSearchParams(withoutMilestone)}` }, 'Clear')) : null,
    v.page.items.length
      ? h('ul', { className: 'list box', id: 'issues' }, ...v.page.items.map((i) => h('li', { key: i.id, className: 'row' },
        h('div', null,
          h('a', { href: issuePath(v.repo, i), className: 'title' }, i.title),
          i.isPullRequest ? h('span', { className: 'badge' }, 'Pull request') : null,
          labelList(v.labels.get(i.id) ?? []),
          h('div', { className: 'muted' }, `#${i.number} opened `, time(i.createdAt), ' by ', login(v.authors, i.userId),
            i.state === 'closed' ? ' · closed' : '')),
        i.comments ? h('span', { className: 'muted', 'aria-label': `${i.comments} comments` }, `💬 ${i.comments}`) : null)))
      : h('p', { className: 'box' }, 'No issues match.'),
    pager(base, v.filter.page, v.page.total, PER_PAGE, query)));
}

function commentBox(people: Map<number, Account>, userId: number, at: string, html: string, id: string, reactions: ReactNode): ReactNode {
  return h('article', { className: 'comment box', id, key: id },
    h('header', { className: 'comment-head' }, login(people, userId), ' commented ', time(at)),
    html ? trustedHtml('div', { className: 'markdown-body' }, html) : h('p', { className: 'muted' }, 'No description provided.'),
    reactions);
}

export interface CommentForm {
  body: string;
  errors: string[];
}

/** What a refused post shows again on an issue page: the comment form as typed, or a reaction's refusal in its bar. */
export interface IssueInline {
  comment?: CommentForm;
  reaction?: ReactionErrors;
}

/** Something else in the conversation (a pull request's review), placed among the comments by its time. */
export interface TimelineEntry {
  at: string;
  node: ReactNode;
}

/** The conversation of an issue or pull request: its body, the comments (and `more`, by time), the comment form. */
export function conversation(frame: Frame, v: IssueView, inline: IssueInline = {}, more: readonly TimelineEntry[] = []): ReactNode {
  const { issue } = v;
  const form = inline.comment ?? { body: '', errors: [] };
  const path = issuePath(v.repo, issue.record);
  const comments: Rendered<{ id: number; userId: number; createdAt: string }>[] = v.comments;
  const timeline: TimelineEntry[] = [
    ...comments.map((c) => ({
      at: c.record.createdAt,
      node: commentBox(v.people, c.record.userId, c.record.createdAt, c.html, `comment-${c.record.id}`,
        reactionBar(frame, `${path}/comments/${c.record.id}/reactions`, `reactions-comment-${c.record.id}`, v.reactions.comments.get(c.record.id) ?? [], v.canReact, inline.reaction)),
    })),
    ...more,
  ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return fragment(
    commentBox(v.people, issue.record.userId, issue.record.createdAt, issue.html, 'issue-body',
      reactionBar(frame, `${path}/reactions`, 'reactions-issue', v.reactions.issue, v.canReact, inline.reaction)),
    ...timeline.map((e) => e.node),
    frame.user
      ? v.canComment
        ? postForm(frame, `${issuePath(v.repo, issue.record)}/comments`, { className: 'box', id: 'comment-form' },
          h('h2', null, 'Add a comment'),
          flash('error', form.errors),
          h('label', { htmlFor: 'comment-body' }, 'Comment'),
          h('textarea', { id: 'comment-body', name: 'body', rows: 6, required: true, defaultValue: form.body }),
          h('button', { type: 'submit', id: 'comment-submit' }, 'Comment'))
        : h('p', { className: 'box muted' }, 'This conversation is locked or you may not comment on it.')
      : h('p', { className: 'box' }, h('a', { href: `/login?return_to=${encodeURIComponent(frame.path)}` }, 'Sign in'), ' to comment.'));
}

/** The milestone an issue or pull request is in, linking to its page. */
export function milestoneOf(v: IssueView): ReactNode {
  if (!v.milestone) return null;
  return h('p', { className: 'muted', id: 'issue-milestone' }, 'Milestone: ', h('a', { href: repoPath(v.repo, 'milestone', v.milestone.number) }, v.milestone.title));
}

export function issuePage(frame: Frame, v: IssueView, inline: IssueInline = {}): string {
  const i = v.issue.record;
  return renderPage(frame, fragment(repoHeader(v.repo, 'issues'),
    h('div', { className: 'issue-title' },
      h('h2', { id: 'issue-title' }, i.title, ' ', h('span', { className: 'muted' }, `#${i.number}`)),
      stateBadge(i), labelList(v.labels), milestoneOf(v)),
    conversation(frame, v, inline)));
}

export interface NewIssueForm {
  title: string;
  body: string;
  errors: string[];
}

export function newIssuePage(frame: Frame, repo: Repo, form: NewIssueForm): string {
  return renderPage(frame, fragment(repoHeader(repo, 'issues'),
    postForm(frame, repoPath(repo, 'issues'), { className: 'box', id: 'new-issue-form' },
      h('h2', null, 'New issue'),
      flash('error', form.errors),
      h('label', { htmlFor: 'issue-title-field' }, 'Title'),
      h('input', { type: 'text', id: 'issue-title-field', name: 'title', defaultValue: form.title, required: true }),
      h('label', { htmlFor: 'issue-body-field' }, 'Description'),
      h('textarea', { id: 'issue-body-field', name: 'body', rows: 10, defaultValue: form.body }),
      h('button', { type: 'submit', id: 'submit-issue' }, 'Submit new issue'))));
}

/** The labels of a repository, each linking to the issues that carry it. */
export function labelsPage(frame: Frame, v: LabelPageOf, page: number): string {
  const base = repoPath(v.repo, 'labels');
  return renderPage(frame, fragment(repoHeader(v.repo, 'issues'),
    h('h2', null, `${v.page.total} label${v.page.total === 1 ? '' : 's'}`),
    v.page.items.length
      ? h('ul', { className: 'list box', id: 'labels' }, ...v.page.items.map((l) => h('li', { key: l.id, className: 'row' },
        h('div', null,
          h('a', { className: 'label', href: `${repoPath(v.repo, 'issues')}?${new URLSearchParams({ state: 'open', labels: l.name })}` }, l.name),
          l.description ? h('span', { className: 'muted' }, ` ${l.description}`) : null))))
      : h('p', { className: 'box' }, 'No labels.'),
    pager(base, page, v.page.total, PER_PAGE * 4)));
}
