// The command an SSH client asks to run, as git sends it: `git-upload-pack '/owner/repo.git'`
// (its path single-quoted the way git's sq_quote writes it: ' and ! outside the quotes,
// escaped), or with a space, `git upload-pack …`. The path may start with / (ssh:// URLs)
// or ~ (ssh://host/~owner/repo), and may lack .git.
import type { GitService } from '../git-http/git-http.service.ts';

export interface GitCommand {
  service: GitService;
  owner: string;
  /** The repository's name as given, without .git. */
  name: string;
}

const SERVICES: Record<string, GitService> = {
  'git-upload-pack': 'git-upload-pack',
  'git-receive-pack': 'git-receive-pack',
  'git-upload-archive': 'git-upload-archive',
  'git upload-pack': 'git-upload-pack',
  'git receive-pack': 'git-receive-pack',
  'git upload-archive': 'git-upload-archive',
};

/** One shell word: quoted parts ('…'), backslash escapes and plain characters, or null when unbalanced. */
function unquote(word: string): string | null {
  let out = '';
  for (let i = 0; i < word.length; i++) {
    const c = word[i]!;
    if (c === "'") {
      const end = word.indexOf("'", i + 1);
      if (end < 0) return null;
      out += word.slice(i + 1, end);
      i = end;
    } else if (c === '\\') {
      if (i + 1 >= word.length) return null;
      out += word[++i];
    } else if (/\s/.test(c)) {
      return null; // a second argument: git sends one
    } else {
      out += c;
    }
  }
  return out;
}

/** The git service and repository the command names, or null for anything else. */
export function parseGitCommand(command: string): GitCommand | null {
  const m = /^\s*(git[- ](?:upload-pack|receive-pack|upload-archive))\s+(.+?)\s*$/.exec(command);
  const service = m ? SERVICES[m[1]!] : undefined;
  if (!m || !service) return null;
  const path = unquote(m[2]!);
  if (path === null) return null;
  const parts = /^[/~]*([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?\/?$/.exec(path);
  if (!parts) return null;
  return { service, owner: parts[1]!, name: parts[2]! };
}
