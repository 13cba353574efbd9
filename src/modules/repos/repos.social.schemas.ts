// Request and response schemas of forks, stars, watching and template generation.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, PagedArray } from '../../http/schema-types.ts';
import { SimpleUser } from '../users/users.schemas.ts';
import { Repository } from './repos.schemas.ts';

const PageProps = {
  page: Type.Optional(Type.String()),
  per_page: Type.Optional(Type.String()),
};

export const PageQuery = Type.Object(PageProps);

export const CreateForkBody = Type.Object({
  organization: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  default_branch_only: Type.Optional(Type.Boolean()),
});
export type CreateForkBody = Static<typeof CreateForkBody>;

export const ListForksQuery = Type.Object({
  sort: Type.Optional(StringEnum(['newest', 'oldest', 'stargazers', 'watchers'] as const)),
  ...PageProps,
});

export const GenerateBody = Type.Object({
  owner: Type.Optional(Type.String()),
  name: Type.String(),
  description: Type.Optional(Nullable(Type.String({ maxLength: 350 }))),
  include_all_branches: Type.Optional(Type.Boolean()),
  private: Type.Optional(Type.Boolean()),
});
export type GenerateBody = Static<typeof GenerateBody>;

export const TemplateParams = Type.Object({ template_owner: Type.String(), template_repo: Type.String() });

export const SubscriptionBody = Type.Object({
  subscribed: Type.Optional(Type.Boolean()),
  ignored: Type.Optional(Type.Boolean()),
});

export const ListStarredQuery = Type.Object({
  sort: Type.Optional(StringEnum(['created', 'updated'] as const)),
  direction: Type.Optional(StringEnum(['asc', 'desc'] as const)),
  ...PageProps,
});

// Response schemas.

export const RepositorySubscription = Type.Object({
  subscribed: Type.Boolean(),
  ignored: Type.Boolean(),
  reason: Nullable(Type.String()),
  created_at: Type.String(),
  url: Type.String(),
  repository_url: Type.String(),
});

/** A starred repository as the star media type shows it. */
export const StarredRepository = Type.Object({ starred_at: Type.String(), repo: Repository });
/** A stargazer as the star media type shows it. */
export const Stargazer = Type.Object({ starred_at: Type.String(), user: SimpleUser });

/** Repositories, or with the star media type each with the date it was starred. */
export const StarredList = PagedArray(Type.Union([StarredRepository, Repository]));
export type StarredItem = Static<typeof StarredRepository> | Repository;
export const StargazerList = PagedArray(Type.Union([Stargazer, SimpleUser]));
export type StargazerItem = Static<typeof Stargazer> | Static<typeof SimpleUser>;
