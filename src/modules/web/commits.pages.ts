// History: the commits of a ref (paged as the API pages them) and one commit with its
// verification and its unified diff.
import type { FileChange } from '../../git/history.ts';
import type { CommitRecordData } from '../git-data/commits.service.ts';
import type { CommitDetail } from '../git-data/commits.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import { encPath, pager, refSwitcher, repoHeader, repoPath } from './repo.layout.ts';
import type { CommitsView, CommitView } from './code.service.ts';
import { PER_PAGE } from './web.service.ts';
import type { CombinedStatus } from '../statuses/statuses.service.ts';
import { fragment, h, renderPage, type Frame, type ReactNode } from './web.render.ts';
import { checksList, statusMark } from './commit-checks.pages.ts';
import type { Mark } from './commit-checks.service.ts';

function when(epoch: number): ReactNode {
  const iso = new Date(epoch * 1000).toISOString();
  return h('time', { dateTime: iso }, iso.slice(0, 10));
}

function authorOf(c: CommitRecordData): ReactNode {
  const ident = c.commit.parsed.author;
  return c.author ? h('a', { href: `/${encodeURIComponent(c.author.login)}` }, c.author.login) : ident.name;
}

export function verificationBadge(c: CommitRecordData): ReactNode {
  const v = c.commit.verification;
  if (v.verified) return h('span', { className: 'badge ok', title: `Signature verified (${v.reason})` }, 'Verified');
  if (v.signature) return h('span', { className: 'badge warn', title: v.reason }, 'Unverified');
  return null;
}

function summaryOf(message: string): string {
  return message.split('\n')[0] ?? '';
}

export function commitRow(repo: Repo, c: CommitRecordData, mark?: Mark): ReactNode {
  return h('li', { key: c.commit.sha, className: 'row' },
    h('div', null,
      h('a', { href: repoPath(repo, 'commit', c.commit.sha), className: 'title' }, summaryOf(c.commit.parsed.message)),
      mark ? fragment(' ', statusMark(mark)) : null,
      h('div', { className: 'muted' }, authorOf(c), ' committed ', when(c.commit.parsed.committer.epoch), ' ', verificationBadge(c))),
    h('a', { href: repoPath(repo, 'commit', c.commit.sha), className: 'sha' }, h('code', null, c.commit.sha.slice(0, 7))));
}

export function commitsPage(frame: Frame, v: CommitsView): string {
  const base = repoPath(v.repo, 'commits', encPath(v.ref));
  return renderPage(frame, fragment(repoHeader(v.repo, 'commits'),
    h('div', { className: 'toolbar' },
      refSwitcher(v.repo, v.refs, v.ref, (ref) => repoPath(v.repo, 'commits', encPath(ref))),
      v.path ? h('span', null, 'History of ', h('code', null, v.path)) : null,
      v.ref !== v.repo.defaultBranch && v.refs.branches.includes(v.ref)
        ? h('a', { href: repoPath(v.repo, 'compare', `${encPath(v.repo.defaultBranch)}...${encPath(v.ref)}`), id: 'compare-link' }, `Compare with ${v.repo.defaultBranch}`)
        : null),
    h('h2', { className: 'visually-hidden' }, `Commits on ${v.ref}`),
    v.items.length
      ? h('ul', { className: 'list box', id: 'commits' }, ...v.items.map((c) => commitRow(v.repo, c, v.marks.get(c.commit.sha))))
      : h('p', { className: 'box' }, 'No commits.'),
    pager(base, v.page, v.total, PER_PAGE, v.path ? { path: v.path } : {})));
}

const STATUS: Record<string, string> = { added: 'added', removed: 'deleted', modified: 'modified', renamed: 'renamed', copied: 'copied', changed: 'changed', unchanged: 'unchanged' };

/** The changed files as a unified diff, one section per file. */
export function diffView(files: readonly FileChange[], total: number): ReactNode {
  return h('div', { className: 'diff' },
    h('p', { className: 'muted' }, `${total} changed file${total === 1 ? '' : 's'}`,
      total > files.length ? ` (the first ${files.length} shown)` : ''),
    ...files.map((f) => h('section', { key: f.path, className: 'box file-diff', 'aria-label': f.path },
      h('h3', null, h('code', null, f.previousPath && f.previousPath !== f.path ? `${f.previousPath} → ${f.path}` : f.path),
        ' ', h('span', { className: 'muted' }, STATUS[f.status] ?? f.status, ' ',
          h('span', { className: 'add' }, `+${f.additions}`), ' ', h('span', { className: 'del' }, `−${f.deletions}`))),
      f.patch === null
        ? h('p', { className: 'muted' }, 'Binary file or a change of mode only.')
        : h('pre', { tabIndex: 0, 'aria-label': `Changes to ${f.path}` }, h('code', null,
          ...f.patch.split('\n').map((line, i) => h('span', {
            key: i, className: line.startsWith('@@') ? 'd-hunk' : line.startsWith('+') ? 'd-add' : line.startsWith('-') ? 'd-del' : undefined,
          }, `${line}\n`)))))));
}

function statusList(s: CombinedStatus): ReactNode {
  if (!s.total) return null;
  return h('section', { className: 'box', 'aria-labelledby': 'status-heading', id: 'statuses' },
    h('h2', { id: 'status-heading' }, 'Statuses: ', h('span', { className: `badge ${s.state === 'success' ? 'ok' : s.state === 'failure' ? 'warn' : ''}` }, s.state)),
    h('ul', { className: 'list' }, ...s.statuses.map((st) => h('li', { key: st.id, className: 'row' },
      h('div', null, h('strong', null, st.context), st.description ? h('span', { className: 'muted' }, ` — ${st.description}`) : null),
      h('div', null,
        h('span', { className: `badge ${st.state === 'success' ? 'ok' : st.state === 'pending' ? '' : 'warn'}` }, st.state),
        st.targetUrl && /^https?:\/\//.test(st.targetUrl) ? fragment(' ', h('a', { href: st.targetUrl, rel: 'nofollow noopener' }, 'Details')) : null)))));
}

export function commitPage(frame: Frame, v: CommitView): string {
  const d: CommitDetail = v.detail;
  const c = d.commit;
  const [title, ...rest] = c.parsed.message.split('\n');
  return renderPage(frame, fragment(repoHeader(d.repo, 'commits'),
    h('section', { className: 'box' },
      h('h2', { id: 'commit-title' }, title),
      rest.join('\n').trim() ? h('pre', { className: 'message' }, rest.join('\n').trim()) : null,
      h('p', { className: 'muted' }, authorOf(d), ' committed ', when(c.parsed.committer.epoch), ' ', verificationBadge(d)),
      h('p', null, 'Commit ', h('code', { id: 'commit-sha' }, c.sha),
        ...c.parsed.parents.map((p) => fragment(' · parent ', h('a', { key: p, href: repoPath(d.repo, 'commit', p) }, h('code', null, p.slice(0, 7))))),
        ' · ', h('a', { href: repoPath(d.repo, 'tree', c.sha) }, 'Browse files')),
      h('p', null, h('span', { className: 'add' }, `+${d.stats.additions}`), ' ', h('span', { className: 'del' }, `−${d.stats.deletions}`))),
    statusList(v.status),
    checksList(v.checks.runs, v.checks.total),
    diffView(d.files, d.fileCount)));
}
