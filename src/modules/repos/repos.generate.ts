// Repositories generated from a template repository: the template's files (its
// default branch, or every branch) in a new history of one commit per branch,
// authored by the caller; template_repository points back at the template.
import type { AppContext } from '../../context.ts';
import { isSiteAdmin, requireUser, type Actor } from '../../domain/actor.ts';
import { isoSeconds } from '../../domain/clock.ts';
import { ForbiddenError, ValidationError } from '../../domain/errors.ts';
import { copyTrees } from '../../git/copy.ts';
import * as git from '../../git/repository.ts';
import * as orgs from '../orgs/orgs.service.ts';
import * as users from '../users/users.service.ts';
import { createDerivedRepo, detailOf, nameTaken } from './repos.derived.ts';
import { noreplyEmail } from './repos.init.ts';
import type { Repo } from './repos.model.ts';
import { gitDir, locate, type RepoDetail } from './repos.service.ts';
import * as store from './repos.store.ts';
import { validateRepoName } from './repos.names.ts';

export interface GenerateInput {
  /** Login of the new repository's owner: the caller (default) or one of their organizations. */
  owner?: string;
  name: string;
  description?: string | null;
  includeAllBranches?: boolean;
  private?: boolean;
}

/**
 * Upstream: "If the repository is not public, the authenticated user must own or be a
 * member of an organization that owns the repository."
 */
async function checkTemplateUse(ctx: AppContext, actor: Actor, template: Repo): Promise<void> {
  if (template.visibility === 'public' || isSiteAdmin(actor)) return;
  const userId = requireUser(actor).id;
  if (template.ownerId === userId) return;
  if (template.owner.type === 'Organization') {
    const membership = await orgs.membershipOf(ctx, template.ownerId, userId);
    if (membership?.state === 'active') return;
  }
  throw new ForbiddenError('You must own the template repository or be a member of the organization that owns it to use it.');
}

export async function generateFromTemplate(
  ctx: AppContext, actor: Actor, templateOwner: string, templateName: string, input: GenerateInput,
): Promise<RepoDetail> {
  requireUser(actor);
  const { repo: template } = await locate(ctx, actor, templateOwner, templateName);
  if (!template.isTemplate) {
    throw new ValidationError([{
      resource: 'Repository', field: 'template_repo', code: 'custom',
      message: `${template.owner.login}/${template.name} is not a template repository`,
    }]);
  }
  await checkTemplateUse(ctx, actor, template);
  validateRepoName(input.name);
  const owner = input.owner === undefined ? await users.getOwnAccount(ctx, actor) : await users.findAccount(ctx, input.owner);
  if (!owner) throw new ValidationError([{ resource: 'Repository', field: 'owner', code: 'invalid', value: input.owner, message: `Could not find owner ${input.owner}.` }]);
  const creator = await users.getOwnAccount(ctx, actor);

  const templateDir = gitDir(ctx, template);
  const heads = await git.listRefs(templateDir, ['refs/heads/']);
  const branches = heads
    .filter((h) => h.type === 'commit' && (input.includeAllBranches || h.ref === `refs/heads/${template.defaultBranch}`))
    .map((h) => ({ ref: h.ref, tree: `${h.sha}^{tree}` }));
  const trees = await Promise.all(branches.map(async (b) => ({ ref: b.ref, tree: (await git.resolve(templateDir, b.tree))! })));

  const repo = await createDerivedRepo(ctx, actor, {
    owner,
    row: {
      visibility: input.private ? 'private' : 'public',
      defaultBranch: template.defaultBranch,
      description: input.description === '' ? null : input.description ?? null,
      templateId: template.id,
    },
    // The files are the template's, so what was learnt from them carries over.
    changes: trees.length ? { licenseKey: template.licenseKey, language: template.language } : {},
    chooseName: async (tx) => {
      if ((await store.takenNames(tx.db, owner.id, [input.name])).size) throw nameTaken();
      return input.name;
    },
    populate: async (dir) => {
      await copyTrees(dir, templateDir, trees.map((t) => t.tree));
      const now = isoSeconds(ctx.clock.now());
      const who = { name: creator.name ?? creator.login, email: creator.email ?? noreplyEmail(ctx, creator), date: now };
      for (const t of trees) {
        const sha = await git.commitTree(dir, t.tree, [], 'Initial commit\n', who, who);
        await git.updateRef(dir, t.ref, sha, git.ZERO_SHA);
      }
    },
  });
  return detailOf(ctx, actor, repo);
}
