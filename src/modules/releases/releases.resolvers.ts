// GraphQL resolvers of releases, on the releases service (the one REST calls). A
// ReleaseNode is only made for a release the caller may see: of a repository they may
// read (reached through a RepositoryNode, or checked by node(id:)), and not a draft
// unless they have push access. A release is Reactable: its reaction fields, and
// addReaction/removeReaction by its node id, go through the reactions registry to the
// reactions service REST's release reactions use.
import { offsetConnection, type ConnectionArgs, type Fetch } from '../../graphql/connection.ts';
import type { GraphQLContext } from '../../graphql/context.ts';
import { defineMapLoader, load } from '../../graphql/loaders.ts';
import type { GraphQLModule } from '../../graphql/module.ts';
import { encodeNodeId, numericId } from '../../graphql/node-id.ts';
import { commitNode, findRef } from '../git-data/git-data.resolvers.ts';
import { renderHtml } from '../markdown/markdown.service.ts';
import {
  reactionGroupsFor, reactionsConnectionFor, registerReactableNode, registerReactionSubject, type ReactionsArgs,
} from '../reactions/reactions.graphql-helpers.ts';
import type { Repo } from '../repos/repos.model.ts';
import { repositoryById, repositoryNode, type RepositoryNode } from '../repos/repos.resolvers.ts';
import { accountById, accountNode } from '../users/users.resolvers.ts';
import { releasesTypeDefs } from './releases.graphql.ts';
import type { Release, ReleaseAsset } from './releases.model.ts';
import { assetsByIds, listAssets } from './release-assets.service.ts';
import { seesDraftsOf } from './releases.access.ts';
import { commitOfTag } from './release-tags.ts';
import * as releases from './releases.service.ts';
import { assetDownloadUrl, releaseHtmlUrl } from './releases.views.ts';

export interface ReleaseNode {
  __typename: 'Release';
  repo: Repo;
  release: Release;
}

export interface ReleaseAssetNode {
  __typename: 'ReleaseAsset';
  repo: Repo;
  release: Release;
  asset: ReleaseAsset;
}

function releaseNode(repo: Repo, release: Release): ReleaseNode {
  return { __typename: 'Release', repo, release };
}

function assetNode(repo: Repo, release: Release, asset: ReleaseAsset): ReleaseAssetNode {
  return { __typename: 'ReleaseAsset', repo, release, asset };
}

const latestOf = defineMapLoader('latestReleaseOfRepository',
  (g, repositoryIds: readonly number[]) => releases.latestReleaseIds(g.ctx, repositoryIds));

const releaseById = defineMapLoader('releaseById', async (g, ids: readonly number[]) =>
  new Map((await releases.releasesByIds(g.ctx, ids)).map((r) => [r.id, r])));

const assetById = defineMapLoader('releaseAssetById', async (g, ids: readonly number[]) =>
  new Map((await assetsByIds(g.ctx, ids)).map((a) => [a.id, a])));

async function user(g: GraphQLContext, id: number | null) {
  const account = id === null ? null : await load(g, accountById, id);
  return account ? accountNode(account) : null;
}

const releaseFields = {
  id: (r: ReleaseNode) => encodeNodeId('Release', r.release.id),
  databaseId: (r: ReleaseNode) => r.release.id,
  name: (r: ReleaseNode) => r.release.name,
  tagName: (r: ReleaseNode) => r.release.tagName,
  description: (r: ReleaseNode) => r.release.body,
  descriptionHTML: (r: ReleaseNode, _a: unknown, g: GraphQLContext) =>
    (r.release.body ? renderHtml(g.ctx, r.release.body, { mode: 'gfm', context: `${r.repo.owner.login}/${r.repo.name}` }) : ''),
  isDraft: (r: ReleaseNode) => r.release.draft,
  isPrerelease: (r: ReleaseNode) => r.release.prerelease,
  isLatest: async (r: ReleaseNode, _a: unknown, g: GraphQLContext) => (await load(g, latestOf, r.repo.id)) === r.release.id,
  createdAt: (r: ReleaseNode) => r.release.createdAt,
  publishedAt: (r: ReleaseNode) => r.release.publishedAt,
  updatedAt: (r: ReleaseNode) => r.release.updatedAt,
  author: (r: ReleaseNode, _a: unknown, g: GraphQLContext) => user(g, r.release.authorId),
  repository: (r: ReleaseNode) => repositoryNode(r.repo),
  url: (r: ReleaseNode, _a: unknown, g: GraphQLContext) => releaseHtmlUrl(g.ctx.urls, r),
  resourcePath: (r: ReleaseNode, _a: unknown, g: GraphQLContext) => new URL(releaseHtmlUrl(g.ctx.urls, r)).pathname,
  tag: (r: ReleaseNode, _a: unknown, g: GraphQLContext) => findRef(g, r.repo, `refs/tags/${r.release.tagName}`),
  tagCommit: async (r: ReleaseNode, _a: unknown, g: GraphQLContext) => {
    const sha = await commitOfTag(g.ctx, r.repo, r.release.tagName);
    return sha ? commitNode(r.repo, sha) : null;
  },
  reactionGroups: (r: ReleaseNode, _a: unknown, g: GraphQLContext) => reactionGroupsFor(g, r, 'release', r.release.id),
  reactions: (r: ReleaseNode, args: ReactionsArgs, g: GraphQLContext) => reactionsConnectionFor(g, r, 'release', r.release.id, args),
  // Whoever sees a release may react to it (the reactions service's rule), but not in an archived repository.
  viewerCanReact: (r: ReleaseNode) => !r.repo.archived,
  releaseAssets: (r: ReleaseNode, args: ConnectionArgs & { name?: string | null }, g: GraphQLContext) =>
    offsetConnection(args, async (offset, limit) => {
      const page = await listAssets(g.ctx, g.actor, r.repo.owner.login, r.repo.name, r.release.id, { perPage: limit, offset }, args.name ?? undefined);
      return { items: page.items.map((a) => assetNode(a.repo, a.release, a.asset)), total: page.total };
    }),
};

const assetFields = {
  id: (a: ReleaseAssetNode) => encodeNodeId('ReleaseAsset', a.asset.id),
  name: (a: ReleaseAssetNode) => a.asset.name,
  contentType: (a: ReleaseAssetNode) => a.asset.contentType,
  size: (a: ReleaseAssetNode) => a.asset.size,
  downloadCount: (a: ReleaseAssetNode) => a.asset.downloadCount,
  // Upstream's url and downloadUrl are both the browser download address.
  url: (a: ReleaseAssetNode, _a: unknown, g: GraphQLContext) => assetDownloadUrl(g.ctx.urls, a),
  downloadUrl: (a: ReleaseAssetNode, _a: unknown, g: GraphQLContext) => assetDownloadUrl(g.ctx.urls, a),
  createdAt: (a: ReleaseAssetNode) => a.asset.createdAt,
  updatedAt: (a: ReleaseAssetNode) => a.asset.updatedAt,
  uploadedBy: (a: ReleaseAssetNode, _a: unknown, g: GraphQLContext) => user(g, a.asset.uploaderId),
  release: (a: ReleaseAssetNode) => releaseNode(a.repo, a.release),
};

interface ReleasesArgs extends ConnectionArgs {
  orderBy?: { field: 'CREATED_AT' | 'NAME'; direction: 'ASC' | 'DESC' } | null;
}

const repositoryFields = {
  releases: (r: RepositoryNode, args: ReleasesArgs, g: GraphQLContext) => {
    const field = args.orderBy?.field === 'NAME' ? 'name' : 'created';
    // Newest first unless asked otherwise; the service orders either way.
    const direction = args.orderBy?.direction === 'ASC' ? 'asc' : 'desc';
    const fetch: Fetch<ReleaseNode> = async (offset, limit) => {
      const page = await releases.listReleases(g.ctx, g.actor, r.repo.owner.login, r.repo.name, { perPage: limit, offset }, { field, direction });
      return { items: page.items.map((x) => releaseNode(x.repo, x.release)), total: page.total };
    };
    return offsetConnection(args, fetch);
  },
  release: async (r: RepositoryNode, args: { tagName: string }, g: GraphQLContext) => {
    const found = await releases.findReleaseByTag(g.ctx, g.actor, r.repo.owner.login, r.repo.name, args.tagName, true);
    return found ? releaseNode(found.repo, found.release) : null;
  },
  latestRelease: async (r: RepositoryNode, _a: unknown, g: GraphQLContext) => {
    const found = await releases.findLatestRelease(g.ctx, g.actor, r.repo.owner.login, r.repo.name);
    return found ? releaseNode(found.repo, found.release) : null;
  },
};

/** The release behind an id, if the caller may see it. */
async function visibleRelease(g: GraphQLContext, id: number): Promise<ReleaseNode | null> {
  const release = await load(g, releaseById, id);
  const repo = release ? await load(g, repositoryById, release.repositoryId) : null;
  if (!release || !repo) return null;
  if (release.draft && !(await seesDraftsOf(g.ctx, g.actor, repo.repo))) return null;
  return releaseNode(repo.repo, release);
}

/** Releases as reaction subjects: addReaction's subjectId, and Reaction.reactable. */
function registerReleaseReactables(): void {
  registerReactableNode('Release', async (g, id) => {
    const n = numericId(id);
    const r = n === null ? null : await visibleRelease(g, n);
    if (!r) return null;
    return { ref: { kind: 'release', owner: r.repo.owner.login, repo: r.repo.name, releaseId: r.release.id }, type: 'release', id: r.release.id, node: r };
  });
  registerReactionSubject('release', visibleRelease);
}

export const releasesGraphQL: GraphQLModule = {
  name: 'releases',
  register: registerReleaseReactables,
  typeDefs: releasesTypeDefs,
  resolvers: {
    Repository: repositoryFields,
    Release: releaseFields,
    ReleaseAsset: assetFields,
  },
  nodes: {
    Release: (g, id) => {
      const n = numericId(id);
      return n === null ? Promise.resolve(null) : visibleRelease(g, n);
    },
    ReleaseAsset: async (g, id) => {
      const n = numericId(id);
      const asset = n === null ? null : await load(g, assetById, n);
      const r = asset ? await visibleRelease(g, asset.releaseId) : null;
      return asset && r ? assetNode(r.repo, r.release, asset) : null;
    },
  },
};
