// The first commit of a repository created with auto_init, gitignore_template or
// license_template: a real commit with README.md, .gitignore and LICENSE.
import type { AppContext } from '../../context.ts';
import { isoSeconds } from '../../domain/clock.ts';
import { ValidationError } from '../../domain/errors.ts';
import * as git from '../../git/repository.ts';
import { detectLicense, gitignoreTemplate, licenseBody } from '../templates/templates.service.ts';
import type { Account } from '../users/users.model.ts';

export interface InitOptions {
  name: string;
  description?: string | null;
  gitignoreTemplate?: string;
  licenseTemplate?: string;
}

/** The address used for commits Wharf writes on a user's behalf when they have no e-mail. */
export function noreplyEmail(ctx: AppContext, user: Account): string {
  return `${user.id}+${user.login}@users.noreply.${ctx.urls.hostname}`;
}

export async function initialCommit(
  ctx: AppContext, dir: string, branch: string, creator: Account, owner: Account, input: InitOptions,
): Promise<{ sha: string; licenseKey: string | null }> {
  const files: { path: string; content: string }[] = [];
  files.push({ path: 'README.md', content: `# ${input.name}\n${input.description ? `\n${input.description}\n` : ''}` });
  if (input.gitignoreTemplate) {
    const source = gitignoreTemplate(input.gitignoreTemplate);
    if (source === null) throw new ValidationError([{ resource: 'Repository', field: 'gitignore_template', code: 'invalid', value: input.gitignoreTemplate }]);
    files.push({ path: '.gitignore', content: source });
  }
  let licenseKey: string | null = null;
  if (input.licenseTemplate) {
    const now = ctx.clock.now();
    const text = licenseBody(input.licenseTemplate.toLowerCase(), { year: now.getUTCFullYear(), fullname: owner.name ?? owner.login });
    if (text === null) throw new ValidationError([{ resource: 'Repository', field: 'license_template', code: 'invalid', value: input.licenseTemplate }]);
    files.push({ path: 'LICENSE', content: text });
    licenseKey = detectLicense(text);
  }
  const entries = await Promise.all(files.map(async (f) => ({
    mode: '100644', type: 'blob' as const, path: f.path, sha: await git.hashObject(dir, 'blob', f.content),
  })));
  const tree = await git.makeTree(dir, entries);
  const who = { name: creator.name ?? creator.login, email: creator.email ?? noreplyEmail(ctx, creator), date: isoSeconds(ctx.clock.now()) };
  const sha = await git.commitTree(dir, tree, [], 'Initial commit\n', who, who);
  await git.updateRef(dir, `refs/heads/${branch}`, sha, git.ZERO_SHA);
  return { sha, licenseKey };
}
