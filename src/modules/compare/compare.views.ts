// A comparison → upstream's commit-comparison record. Pure. Every URL is on the
// repository asked, across forks too (the `owner:ref` sides stay in `basehead`).
import type { Urls } from '../../urls.ts';
import { commitRecord, diffEntry } from '../git-data/commits.views.ts';
import { repoUrls } from '../git-data/git-data.views.ts';
import type { Comparison } from './compare.service.ts';

export function comparisonView(urls: Urls, c: Comparison) {
  const u = repoUrls(urls, c.repo);
  return {
    url: `${u.api}/compare/${c.basehead}`,
    html_url: `${u.html}/compare/${c.basehead}`,
    // The permalink names the commits (each with the owner of the repository holding it),
    // so it keeps meaning the same comparison when branches move.
    permalink_url: `${u.html}/compare/${c.baseOwner}:${c.base.commit.sha}...${c.headOwner}:${c.headSha}`,
    diff_url: `${u.html}/compare/${c.basehead}.diff`,
    patch_url: `${u.html}/compare/${c.basehead}.patch`,
    base_commit: commitRecord(urls, u, c.repo, c.base),
    merge_base_commit: commitRecord(urls, u, c.repo, c.mergeBase),
    status: c.status,
    ahead_by: c.aheadBy,
    behind_by: c.behindBy,
    total_commits: c.aheadBy,
    commits: c.commits.map((d) => commitRecord(urls, u, c.repo, d)),
    files: c.files.map((f) => diffEntry(u, c.headSha, f)),
  };
}
