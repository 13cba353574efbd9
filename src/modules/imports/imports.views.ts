// Source import records, commit authors and large files as the API shows them.
import type { Urls } from '../../urls.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { ImportAuthor, ImportLargeFile, SourceImport } from './imports.model.ts';

const GIGABYTE = 1024 ** 3;

/** What each status means, for a record whose step wrote no text of its own (none does today). */
const STATUS_MESSAGES: Record<SourceImport['status'], string> = {
  detecting: 'Detecting source type',
  importing: 'Importing',
  mapping: 'Mapping authors and branches',
  pushing: 'Pushing',
  complete: 'Done',
  auth_failed: 'Authentication failed: send vcs_username and vcs_password.',
  error: 'The import failed.',
  detection_needs_auth: 'The source needs authentication: send vcs_username and vcs_password.',
  detection_found_nothing: 'No repository found at vcs_url.',
  detection_found_multiple: 'Several projects found: choose one of project_choices.',
};

export function importRecord(urls: Urls, repo: Repo, imp: SourceImport) {
  const url = urls.api('repos', repo.owner.login, repo.name, 'import');
  return {
    vcs: imp.vcs,
    use_lfs: imp.useLfs,
    vcs_url: imp.vcsUrl,
    tfvc_project: imp.tfvcProject,
    status: imp.status,
    status_text: imp.statusText,
    failed_step: imp.failedStep,
    error_message: imp.status === 'error' ? imp.statusText : null,
    // Upstream's message about the import: what the step Wharf is at wrote (the next thing
    // to do, where the caller must act: credentials, a project choice), or failing that
    // what the status means.
    message: imp.statusText ?? STATUS_MESSAGES[imp.status],
    percent: imp.percent,
    // Upstream's published schema names the same figure import_percent.
    import_percent: imp.percent,
    commit_count: imp.commitCount,
    push_percent: imp.pushPercent,
    has_large_files: imp.hasLargeFiles,
    // The spec counts gigabytes; any large file counts as at least one.
    large_files_size: Math.ceil(imp.largeFilesSize / GIGABYTE),
    large_files_count: imp.largeFilesCount,
    authors_count: imp.authorsCount,
    project_choices: imp.projectChoices?.map((c) => ({ vcs: c.vcs, tfvc_project: c.tfvc_project, human_name: c.human_name })) ?? null,
    url,
    html_url: urls.html(repo.owner.login, repo.name, 'import'),
    authors_url: `${url}/authors`,
    repository_url: urls.api('repos', repo.owner.login, repo.name),
  };
}

export function importAuthor(urls: Urls, repo: Repo, a: ImportAuthor) {
  const importUrl = urls.api('repos', repo.owner.login, repo.name, 'import');
  return {
    id: a.id, remote_id: a.remoteId, remote_name: a.remoteName, email: a.email, name: a.name,
    url: `${importUrl}/authors/${a.id}`, import_url: importUrl,
  };
}

export function largeFile(f: ImportLargeFile) {
  return { ref_name: f.refName, path: f.path, oid: f.oid, size: f.size };
}
