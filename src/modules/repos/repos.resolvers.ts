// GraphQL resolvers of the repositories area, on the repos services (the ones REST
// calls). A RepositoryNode is only ever made for a repository the caller may read:
// everything reached through it (git objects, issues …) relies on that check.
import { MovedPermanentlyError, NotFoundError } from '../../domain/errors.ts';
import { offsetConnection, reversed, type ConnectionArgs, type Fetch } from '../../graphql/connection.ts';
import type { GraphQLContext } from '../../graphql/context.ts';
import { GraphQLApiError, notFound } from '../../graphql/errors.ts';
import { defineLoader, defineMapLoader, load, prime } from '../../graphql/loaders.ts';
import type { GraphQLModule } from '../../graphql/module.ts';
import { encodeNodeId, idOfType, numericId } from '../../graphql/node-id.ts';
import { parseQuery, sortQualifier } from '../search/search-query.ts';
import * as search from '../search/search.service.ts';
import * as collaborators from '../collaborators/collaborators.service.ts';
import { LICENSES, type LicenseInfo } from '../templates/templates.licenses.ts';
import * as templates from '../templates/templates.service.ts';
import { accountById, accountNode, type AccountNode } from '../users/users.resolvers.ts';
import * as users from '../users/users.service.ts';
import * as forks from './repos.forks.ts';
import { accessToMany } from './repos.access.ts';
import { LANGUAGE_COLORS } from './repos.language-table.ts';
import { reposTypeDefs } from './repos.graphql.ts';
import type { Repo, Role } from './repos.model.ts';
import * as repos from './repos.service.ts';
import { repoLinks } from './repos.views.ts';
import * as stars from './repos.stars.ts';
import * as watching from './repos.watching.ts';

export interface RepositoryNode {
  __typename: 'Repository';
  repo: Repo;
}

/** Only for a repository the caller may read (see the top of this file). */
export function repositoryNode(repo: Repo): RepositoryNode {
  return { __typename: 'Repository', repo };
}

/** Repositories by id, as the caller may see them: null for those they may not read. Other areas use it (Issue.repository …). */
export const repositoryById = defineLoader('repositoryById', async (g, ids: readonly number[]) => {
  const found = await repos.reposByIds(g.ctx, ids);
  const access = await accessToMany(g.ctx, g.actor, found);
  const byId = new Map(found.filter((r) => access.get(r.id)?.effective).map((r) => [r.id, repositoryNode(r)]));
  return ids.map((id) => byId.get(id) ?? null);
});

/** Counts and the caller's role, for a page of repositories at once. */
const presentation = defineLoader('repositoryPresentation',
  (g, list: readonly Repo[]) => repos.presentable(g.ctx, g.actor, list),
  (r: Repo) => r.id);

const starredByViewer = defineLoader('starredByViewer', async (g, ids: readonly number[]) => {
  const starred = await stars.starredAmong(g.ctx, g.user.id, ids);
  return ids.map((id) => starred.has(id));
});

const viewerSubscriptions = defineMapLoader('viewerSubscriptions',
  (g, ids: readonly number[]) => watching.subscriptionsAmong(g.ctx, g.user.id, ids));

const PERMISSION: Record<Role, string> = { admin: 'ADMIN', maintain: 'MAINTAIN', push: 'WRITE', triage: 'TRIAGE', pull: 'READ' };

/** Not every order upstream offers is one the services sort by: those are refused, not ignored. */
function unsupported(what: string): GraphQLApiError {
  return new GraphQLApiError('UNPROCESSABLE', `${what} is not supported.`);
}

// ---------------------------------------------------------------- licenses and languages

interface LicenseNode {
  __typename: 'License';
  info: LicenseInfo | null;
}

/** A license file Wharf does not recognise, shown as upstream shows it. */
const OTHER_LICENSE = { key: 'other', name: 'Other', spdxId: 'NOASSERTION', nodeNumber: 0 };

function licenseNode(key: string): LicenseNode | null {
  if (key === 'other') return { __typename: 'License', info: null };
  const info = templates.findLicense(key);
  return info ? { __typename: 'License', info } : null;
}

/** choosealicense.com's rule tags, with the labels upstream shows. */
const RULE_LABELS: Record<string, [string, string]> = {
  'commercial-use': ['Commercial use', 'The licensed material and derivatives may be used for commercial purposes.'],
  modifications: ['Modification', 'The licensed material may be modified.'],
  distribution: ['Distribution', 'The licensed material may be distributed.'],
  'private-use': ['Private use', 'The licensed material may be used and modified in private.'],
  'patent-use': ['Patent use', 'The license speaks to patent rights.'],
  'include-copyright': ['License and copyright notice', 'A copy of the license and copyright notice must be included with the licensed material.'],
  'include-copyright--source': ['License and copyright notice for source', 'A copy of the license and copyright notice must be included with the licensed material in source form, but is not required for binaries.'],
  'document-changes': ['State changes', 'Changes made to the licensed material must be documented.'],
  'disclose-source': ['Disclose source', 'Source code must be made available when the licensed material is distributed.'],
  'network-use-disclose': ['Network use is distribution', 'Users who interact with the licensed material via network are given the right to receive a copy of the source code.'],
  'same-license': ['Same license', 'Modifications must be released under the same license when distributing the licensed material.'],
  'same-license--file': ['Same license (file)', 'Modifications of existing files must be released under the same license when distributing the licensed material.'],
  'same-license--library': ['Same license (library)', 'Modifications must be released under the same license when distributing the licensed material, or a larger work using it.'],
  liability: ['Liability', 'This license includes a limitation of liability.'],
  warranty: ['Warranty', 'This license explicitly states that it does NOT provide any warranty.'],
  'trademark-use': ['Trademark use', 'This license explicitly states that it does NOT grant trademark rights.'],
};

const rules = (keys: readonly string[]) => keys.map((key) => ({ key, label: RULE_LABELS[key]?.[0] ?? key, description: RULE_LABELS[key]?.[1] ?? '' }));

const licenseFields = {
  id: (l: LicenseNode) => encodeNodeId('License', l.info?.nodeNumber ?? OTHER_LICENSE.nodeNumber),
  key: (l: LicenseNode) => l.info?.key ?? OTHER_LICENSE.key,
  name: (l: LicenseNode) => l.info?.name ?? OTHER_LICENSE.name,
  spdxId: (l: LicenseNode) => l.info?.spdxId ?? OTHER_LICENSE.spdxId,
  url: (l: LicenseNode) => l.info?.htmlUrl ?? null,
  body: (l: LicenseNode) => l.info?.body ?? '',
  description: (l: LicenseNode) => l.info?.description ?? null,
  implementation: (l: LicenseNode) => l.info?.implementation ?? null,
  featured: (l: LicenseNode) => l.info?.featured ?? false,
  hidden: () => false,
  nickname: () => null,
  pseudoLicense: (l: LicenseNode) => l.info === null,
  permissions: (l: LicenseNode) => rules(l.info?.permissions ?? []),
  conditions: (l: LicenseNode) => rules(l.info?.conditions ?? []),
  limitations: (l: LicenseNode) => rules(l.info?.limitations ?? []),
};

interface LanguageNode {
  __typename: 'Language';
  name: string;
}


// ---------------------------------------------------------------- repositories

const slice = (offset: number, limit: number) => ({ limit, offset });

async function presentationOf(g: GraphQLContext, r: RepositoryNode) {
  return load(g, presentation, r.repo);
}

/** A page of repositories as nodes, their counts and roles primed for the fields that ask. */
function nodesOf(g: GraphQLContext, page: { items: repos.Presentable[]; total: number }) {
  for (const p of page.items) prime(g, presentation, p.repo, p);
  return { items: page.items.map((p) => repositoryNode(p.repo)), total: page.total };
}

const repositoryFields = {
  id: (r: RepositoryNode) => encodeNodeId('Repository', r.repo.id),
  databaseId: (r: RepositoryNode) => r.repo.id,
  name: (r: RepositoryNode) => r.repo.name,
  nameWithOwner: (r: RepositoryNode) => `${r.repo.owner.login}/${r.repo.name}`,
  description: (r: RepositoryNode) => r.repo.description,
  homepageUrl: (r: RepositoryNode) => r.repo.homepage,
  url: (r: RepositoryNode, _args: unknown, g: GraphQLContext) => g.ctx.urls.html(r.repo.owner.login, r.repo.name),
  resourcePath: (r: RepositoryNode) => `/${r.repo.owner.login}/${r.repo.name}`,
  sshUrl: (r: RepositoryNode, _args: unknown, g: GraphQLContext) => repoLinks(r.repo, g.ctx.urls).ssh_url,
  createdAt: (r: RepositoryNode) => r.repo.createdAt,
  updatedAt: (r: RepositoryNode) => r.repo.updatedAt,
  pushedAt: (r: RepositoryNode) => r.repo.pushedAt,
  diskUsage: (r: RepositoryNode) => r.repo.sizeKb,
  visibility: (r: RepositoryNode) => r.repo.visibility.toUpperCase(),
  isPrivate: (r: RepositoryNode) => r.repo.visibility !== 'public',
  isFork: (r: RepositoryNode) => r.repo.isFork,
  isArchived: (r: RepositoryNode) => r.repo.archived,
  isDisabled: (r: RepositoryNode) => r.repo.disabled,
  isTemplate: (r: RepositoryNode) => r.repo.isTemplate,
  isInOrganization: (r: RepositoryNode) => r.repo.owner.type === 'Organization',
  // Locked while an organization or user migration holds it; Wharf never mirrors.
  isLocked: (r: RepositoryNode) => r.repo.lockedForMigration,
  isMirror: () => false,
  mirrorUrl: () => null,
  hasIssuesEnabled: (r: RepositoryNode) => r.repo.hasIssues,
  hasProjectsEnabled: (r: RepositoryNode) => r.repo.hasProjects,
  hasWikiEnabled: (r: RepositoryNode) => r.repo.hasWiki,
  hasDiscussionsEnabled: (r: RepositoryNode) => r.repo.hasDiscussions,
  forkingAllowed: (r: RepositoryNode) => r.repo.allowForking,
  mergeCommitAllowed: (r: RepositoryNode) => r.repo.allowMergeCommit,
  squashMergeAllowed: (r: RepositoryNode) => r.repo.allowSquashMerge,
  rebaseMergeAllowed: (r: RepositoryNode) => r.repo.allowRebaseMerge,
  autoMergeAllowed: (r: RepositoryNode) => r.repo.allowAutoMerge,
  allowUpdateBranch: (r: RepositoryNode) => r.repo.allowUpdateBranch,
  deleteBranchOnMerge: (r: RepositoryNode) => r.repo.deleteBranchOnMerge,
  webCommitSignoffRequired: (r: RepositoryNode) => r.repo.webCommitSignoffRequired,
  mergeCommitMessage: (r: RepositoryNode) => r.repo.mergeCommitMessage,
  mergeCommitTitle: (r: RepositoryNode) => r.repo.mergeCommitTitle,
  squashMergeCommitMessage: (r: RepositoryNode) => r.repo.squashMergeCommitMessage,
  squashMergeCommitTitle: (r: RepositoryNode) => r.repo.squashMergeCommitTitle,
  owner: (r: RepositoryNode) => accountNode(r.repo.owner),
  parent: (r: RepositoryNode, _args: unknown, g: GraphQLContext) => (r.repo.parentId === null ? null : load(g, repositoryById, r.repo.parentId)),
  templateRepository: (r: RepositoryNode, _args: unknown, g: GraphQLContext) => (r.repo.templateId === null ? null : load(g, repositoryById, r.repo.templateId)),
  licenseInfo: (r: RepositoryNode) => (r.repo.licenseKey ? licenseNode(r.repo.licenseKey) : null),
  primaryLanguage: (r: RepositoryNode) => (r.repo.language ? { __typename: 'Language', name: r.repo.language } : null),
  languages: async (r: RepositoryNode, args: ConnectionArgs & { orderBy?: { direction: 'ASC' | 'DESC' } | null }, g: GraphQLContext) => {
    const all = await repos.listLanguages(g.ctx, g.actor, r.repo.owner.login, r.repo.name);
    // Largest first as computed; upstream's ASC is smallest first.
    const ordered = args.orderBy?.direction === 'ASC' ? [...all].reverse() : all;
    const connection = await offsetConnection(args, async (offset, limit) => ({ items: ordered.slice(offset, offset + limit), total: ordered.length }),
      ([name, size]) => ({ node: { __typename: 'Language' as const, name }, size }));
    return { ...connection, totalSize: all.reduce((sum, [, size]) => sum + size, 0) };
  },
  forkCount: async (r: RepositoryNode, _args: unknown, g: GraphQLContext) => (await presentationOf(g, r)).counts.forks,
  stargazerCount: async (r: RepositoryNode, _args: unknown, g: GraphQLContext) => (await presentationOf(g, r)).counts.stargazers,
  viewerPermission: async (r: RepositoryNode, _args: unknown, g: GraphQLContext) => {
    const role = (await presentationOf(g, r)).role;
    return role ? PERMISSION[role] : null;
  },
  viewerCanAdminister: async (r: RepositoryNode, _args: unknown, g: GraphQLContext) => repos.canAdminister((await presentationOf(g, r)).role),
  viewerHasStarred: (r: RepositoryNode, _args: unknown, g: GraphQLContext) => load(g, starredByViewer, r.repo.id),
  viewerCanSubscribe: () => true,
  viewerSubscription: async (r: RepositoryNode, _args: unknown, g: GraphQLContext) => {
    const s = await load(g, viewerSubscriptions, r.repo.id);
    return s?.ignored ? 'IGNORED' : s?.subscribed ? 'SUBSCRIBED' : 'UNSUBSCRIBED';
  },
  stargazers: (r: RepositoryNode, args: ConnectionArgs & { orderBy?: { field: string; direction: 'ASC' | 'DESC' } | null }, g: GraphQLContext) => {
    const fetch: Fetch<stars.Stargazer> = (offset, limit) => stars.listStargazers(g.ctx, g.actor, r.repo.owner.login, r.repo.name, slice(offset, limit));
    return offsetConnection(args, args.orderBy?.direction === 'DESC' ? reversed(fetch) : fetch,
      (s) => ({ node: accountNode(s.user), starredAt: s.starredAt }));
  },
  watchers: (r: RepositoryNode, args: ConnectionArgs, g: GraphQLContext) =>
    offsetConnection(args, async (offset, limit) => {
      const page = await watching.listWatchers(g.ctx, g.actor, r.repo.owner.login, r.repo.name, slice(offset, limit));
      return { items: page.items.map(accountNode), total: page.total };
    }),
  forks: (r: RepositoryNode, args: ConnectionArgs & { orderBy?: { field: string; direction: 'ASC' | 'DESC' } | null }, g: GraphQLContext) => {
    const o = args.orderBy;
    const sort = !o ? 'newest' : o.field === 'STARGAZERS' ? 'stargazers' : o.field === 'CREATED_AT' ? (o.direction === 'ASC' ? 'oldest' : 'newest') : null;
    if (sort === null || (o?.field === 'STARGAZERS' && o.direction === 'ASC')) throw unsupported(`Ordering forks by ${o!.field} ${o!.direction}`);
    return offsetConnection(args, async (offset, limit) =>
      nodesOf(g, await forks.listForks(g.ctx, g.actor, r.repo.owner.login, r.repo.name, { sort, ...slice(offset, limit) })));
  },
  collaborators: (r: RepositoryNode, args: ConnectionArgs & { affiliation?: 'OUTSIDE' | 'DIRECT' | 'ALL' | null }, g: GraphQLContext) =>
    offsetConnection(args, async (offset, limit) => {
      const affiliation = (args.affiliation ?? 'ALL').toLowerCase() as 'outside' | 'direct' | 'all';
      return collaborators.listCollaborators(g.ctx, g.actor, r.repo.owner.login, r.repo.name, { affiliation }, { perPage: limit, offset });
    }, (c) => ({ node: accountNode(c.user), permission: PERMISSION[c.grant.role] })),
};

// ---------------------------------------------------------------- owners' repositories

interface OwnerRepositoriesArgs extends ConnectionArgs {
  privacy?: 'PUBLIC' | 'PRIVATE' | null;
  visibility?: 'PUBLIC' | 'PRIVATE' | 'INTERNAL' | null;
  orderBy?: { field: string; direction: 'ASC' | 'DESC' } | null;
  affiliations?: (string | null)[] | null;
  ownerAffiliations?: (string | null)[] | null;
  isFork?: boolean | null;
  isArchived?: boolean | null;
  hasIssuesEnabled?: boolean | null;
  isLocked?: boolean | null;
}

const SORT: Record<string, 'created' | 'updated' | 'pushed' | 'full_name'> = {
  CREATED_AT: 'created', UPDATED_AT: 'updated', PUSHED_AT: 'pushed', NAME: 'full_name',
};

function listQueryOf(args: OwnerRepositoriesArgs) {
  if (args.visibility === 'INTERNAL') throw unsupported('Listing repositories by visibility INTERNAL');
  const v = args.visibility ?? args.privacy;
  const o = args.orderBy;
  const sort = o ? SORT[o.field] : undefined;
  if (o && !sort) throw unsupported(`Ordering repositories by ${o.field}`);
  return {
    visibility: v ? (v.toLowerCase() as 'public' | 'private') : undefined,
    sort, direction: o ? (o.direction.toLowerCase() as 'asc' | 'desc') : undefined,
    traits: { fork: args.isFork ?? undefined, archived: args.isArchived ?? undefined, hasIssues: args.hasIssuesEnabled ?? undefined },
  };
}

function ownerRepositories(a: AccountNode, args: OwnerRepositoriesArgs, g: GraphQLContext) {
  const q = listQueryOf(args);
  const login = a.account.login;
  return offsetConnection(args, async (offset, limit) => {
    // Wharf never locks a repository (migrations lock upstream): none is locked.
    if (args.isLocked === true) return { items: [], total: 0 };
    if (a.account.type === 'Organization') {
      const type = q.visibility ?? 'all';
      return nodesOf(g, await repos.listForOrg(g.ctx, g.actor, login, { type, sort: q.sort, direction: q.direction, traits: q.traits, ...slice(offset, limit) }));
    }
    const affiliations = (args.affiliations ?? args.ownerAffiliations ?? ['OWNER', 'COLLABORATOR']).filter((x): x is string => x !== null);
    if (a.account.id === g.user.id) {
      return nodesOf(g, await repos.listForAuthenticatedUser(g.ctx, g.actor, {
        visibility: q.visibility ?? 'all', affiliation: affiliations.map((x) => x.toLowerCase()).join(','),
        sort: q.sort, direction: q.direction, traits: q.traits, ...slice(offset, limit),
      }));
    }
    const type = affiliations.includes('COLLABORATOR') ? 'all' : 'owner';
    return nodesOf(g, await repos.listForUser(g.ctx, g.actor, login, { type, visibility: q.visibility, sort: q.sort, direction: q.direction, traits: q.traits, ...slice(offset, limit) }));
  });
}

/** "/repos/{owner}/{name}" of a rename's redirect → owner and name. */
function renamedTo(err: MovedPermanentlyError): { owner: string; name: string } | null {
  const m = /^\/repos\/([^/]+)\/([^/]+)$/.exec(err.rewrite?.to ?? '');
  return m ? { owner: m[1]!, name: m[2]! } : null;
}

/** The repository as the caller may see it, following renames when asked to (upstream's followRenames). */
async function findRepository(g: GraphQLContext, owner: string, name: string, followRenames: boolean): Promise<RepositoryNode> {
  const fail = () => notFound(`Could not resolve to a Repository with the name '${owner}/${name}'.`);
  try {
    return repositoryNode((await repos.locate(g.ctx, g.actor, owner, name)).repo);
  } catch (err) {
    if (err instanceof MovedPermanentlyError) {
      const to = followRenames ? renamedTo(err) : null;
      if (to) return repositoryNode((await repos.locate(g.ctx, g.actor, to.owner, to.name)).repo);
      throw fail();
    }
    if (err instanceof NotFoundError) throw fail();
    throw err;
  }
}

const ownerRepositoryField = (a: AccountNode, args: { name: string; followRenames?: boolean | null }, g: GraphQLContext) =>
  findRepository(g, a.account.login, args.name, args.followRenames !== false);

// ---------------------------------------------------------------- mutations

interface CreateRepositoryInput {
  clientMutationId?: string | null;
  name: string;
  ownerId?: string | null;
  description?: string | null;
  visibility: 'PUBLIC' | 'PRIVATE' | 'INTERNAL';
  template?: boolean | null;
  homepageUrl?: string | null;
  hasWikiEnabled?: boolean | null;
  hasIssuesEnabled?: boolean | null;
  teamId?: string | null;
}

function unresolvable(id: string): GraphQLApiError {
  return notFound(`Could not resolve to a node with the global id of '${id}'.`);
}

async function createRepository(_: unknown, { input }: { input: CreateRepositoryInput }, g: GraphQLContext) {
  let ownerLogin: string | null = null;
  if (input.ownerId) {
    const ref = idOfType(input.ownerId, 'User', 'Organization');
    const owner = ref ? await load(g, accountById, ref.id) : null;
    if (!owner) throw unresolvable(input.ownerId);
    ownerLogin = owner.id === g.user.id ? null : owner.login;
  }
  let teamId: number | undefined;
  if (input.teamId) {
    const ref = idOfType(input.teamId, 'Team');
    if (!ref) throw unresolvable(input.teamId);
    teamId = ref.id;
  }
  const created = await repos.createRepo(g.ctx, g.actor, ownerLogin, {
    name: input.name,
    visibility: input.visibility.toLowerCase() as 'public' | 'private' | 'internal',
    ...(input.description != null ? { description: input.description } : {}),
    ...(input.homepageUrl != null ? { homepage: input.homepageUrl } : {}),
    isTemplate: input.template ?? false,
    hasWiki: input.hasWikiEnabled ?? false,
    hasIssues: input.hasIssuesEnabled ?? true,
    ...(teamId !== undefined ? { teamId } : {}),
  });
  prime(g, presentation, created.repo, created);
  return { clientMutationId: input.clientMutationId ?? null, repository: repositoryNode(created.repo) };
}

// ---------------------------------------------------------------- the module

export const reposGraphQL: GraphQLModule = {
  name: 'repos',
  typeDefs: reposTypeDefs,
  resolvers: {
    Query: {
      repository: (_: unknown, args: { owner: string; name: string; followRenames?: boolean | null }, g: GraphQLContext) =>
        findRepository(g, args.owner, args.name, args.followRenames !== false),
      repositoryOwner: async (_: unknown, args: { login: string }, g: GraphQLContext) => {
        const account = await users.findAccount(g.ctx, args.login);
        return account ? accountNode(account) : null;
      },
      license: (_: unknown, args: { key: string }) => licenseNode(args.key.toLowerCase()),
      licenses: () => templates.listLicenses().map((l) => ({ __typename: 'License', info: l })),
    },
    Mutation: { createRepository },
    Repository: repositoryFields,
    License: licenseFields,
    Language: {
      id: (l: LanguageNode) => encodeNodeId('Language', l.name),
      name: (l: LanguageNode) => l.name,
      color: (l: LanguageNode) => LANGUAGE_COLORS[l.name] ?? null,
    },
    User: {
      repositories: ownerRepositories,
      repository: ownerRepositoryField,
      starredRepositories: (a: AccountNode, args: ConnectionArgs & { orderBy?: { direction: 'ASC' | 'DESC' } | null }, g: GraphQLContext) =>
        offsetConnection(args, async (offset, limit) => {
          const page = await stars.listStarredByUser(g.ctx, g.actor, a.account.login, {
            sort: 'created', direction: args.orderBy?.direction === 'DESC' ? 'desc' : 'asc', ...slice(offset, limit),
          });
          for (const p of page.items) prime(g, presentation, p.repo, p);
          return page;
        }, (s) => ({ node: repositoryNode(s.repo), starredAt: s.starredAt })),
      watching: (a: AccountNode, args: ConnectionArgs, g: GraphQLContext) =>
        offsetConnection(args, async (offset, limit) => nodesOf(g, await watching.listWatchedByUser(g.ctx, g.actor, a.account.login, slice(offset, limit)))),
    },
    Organization: {
      repositories: ownerRepositories,
      repository: ownerRepositoryField,
    },
    StarredRepositoryConnection: {
      // Wharf keeps every star.
      isOverLimit: () => false,
    },
  },
  nodes: {
    Repository: (g, id) => {
      const n = numericId(id);
      return n === null ? Promise.resolve(null) : load(g, repositoryById, n);
    },
    License: async (_g, id) => {
      const n = numericId(id);
      if (id === '0') return { __typename: 'License', info: null };
      const info = [...LICENSES.values()].find((l) => l.nodeNumber === n);
      return info ? { __typename: 'License', info } : null;
    },
    Language: async (_g, id) => (id ? { __typename: 'Language', name: id } : null),
  },
  scopes: {
    'Mutation.createRepository': ['public_repo', 'repo'],
  },
  search: {
    // Through the search service: the same qualifiers and visibility as GET /search/repositories.
    REPOSITORY: async (g, query, page) => {
      const q = parseQuery(query);
      const { sort, order } = sortQualifier(q, search.REPO_SORTS);
      const found = await search.searchRepositories(g.ctx, g.actor, q, sort, order, { offset: page.offset, perPage: page.limit });
      return nodesOf(g, found);
    },
  },
};
