// Request and response schemas of /search/*, as upstream's OpenAPI description
// (Octokit's search.*) has them: each item is the record the list endpoints present,
// plus `score` and, with the text-match media type, `text_matches`.
import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import { Nullable, PagedObject, StringEnum } from '../../http/schema-types.ts';
import { Verification } from '../git-data/git-data.schemas.ts';
import { Issue, Label } from '../issues/issues.schemas.ts';
import { Repository } from '../repos/repos.schemas.ts';
import { PublicUser, SimpleUser } from '../users/users.schemas.ts';
import { CODE_SORTS, COMMIT_SORTS } from './index-search.service.ts';
import { ISSUE_SORTS, LABEL_SORTS, REPO_SORTS, USER_SORTS } from './search.service.ts';

const Order = StringEnum(['asc', 'desc'] as const);

function searchQuery<const S extends readonly string[]>(sorts: S) {
  return Type.Object({
    q: Type.String(),
    sort: Type.Optional(StringEnum(sorts)),
    order: Type.Optional(Order),
    page: Type.Optional(Type.String()),
    per_page: Type.Optional(Type.String()),
  });
}

export const IssueSearchQuery = Type.Object({
  ...searchQuery(ISSUE_SORTS).properties,
  // Upstream's newer parameters: Wharf runs every search lexically (advanced_search's
  // syntax is the one it parses anyway) and says so in search_type.
  advanced_search: Type.Optional(Type.String()),
  search_type: Type.Optional(StringEnum(['semantic', 'hybrid'] as const)),
});
export const RepoSearchQuery = searchQuery(REPO_SORTS);
export const CommitSearchQuery = searchQuery(COMMIT_SORTS);
export const CodeSearchQuery = searchQuery(CODE_SORTS);
export const UserSearchQuery = searchQuery(USER_SORTS);
export const TopicSearchQuery = Type.Object({
  q: Type.String(),
  page: Type.Optional(Type.String()),
  per_page: Type.Optional(Type.String()),
});
export const LabelSearchQuery = Type.Object({
  repository_id: Type.Integer(),
  q: Type.String(),
  sort: Type.Optional(StringEnum(LABEL_SORTS)),
  order: Type.Optional(Order),
  page: Type.Optional(Type.String()),
  per_page: Type.Optional(Type.String()),
});

export const TextMatch = Type.Object({
  object_url: Type.String(),
  object_type: Type.Union([Type.String(), Type.Null()]),
  property: Type.String(),
  fragment: Type.String(),
  matches: Type.Array(Type.Object({ text: Type.String(), indices: Type.Array(Type.Integer()) })),
});
export type TextMatch = Static<typeof TextMatch>;

function resultItem<P extends TProperties>(record: TObject<P>) {
  return Type.Object({ ...record.properties, score: Type.Number(), text_matches: Type.Optional(Type.Array(TextMatch)) });
}

/** A topic's alias or related topic, as upstream's topic search items name them. */
const TopicRelation = Type.Object({
  topic_relation: Type.Object({ id: Type.Integer(), name: Type.String(), topic_id: Type.Integer(), relation_type: Type.String() }),
});

export const TopicItem = Type.Object({
  name: Type.String(),
  display_name: Type.Union([Type.String(), Type.Null()]),
  short_description: Type.Union([Type.String(), Type.Null()]),
  description: Type.Union([Type.String(), Type.Null()]),
  created_by: Type.Union([Type.String(), Type.Null()]),
  released: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  updated_at: Type.String(),
  featured: Type.Boolean(),
  curated: Type.Boolean(),
  repository_count: Type.Union([Type.Integer(), Type.Null()]),
  logo_url: Nullable(Type.String()),
  related: Nullable(Type.Array(TopicRelation)),
  aliases: Nullable(Type.Array(TopicRelation)),
  score: Type.Number(),
  text_matches: Type.Optional(Type.Array(TextMatch)),
});

function results<T extends TObject>(item: T) {
  // PagedObject: the route returns pagedRecord(), so the conventions write Link.
  return PagedObject(Type.Object({ total_count: Type.Integer(), incomplete_results: Type.Boolean(), items: Type.Array(item) }));
}

export const IssueResults = PagedObject(Type.Object({
  total_count: Type.Integer(), incomplete_results: Type.Boolean(), items: Type.Array(resultItem(Issue)),
  /** The kind of search performed: always lexical in Wharf. */
  search_type: StringEnum(['lexical', 'semantic', 'hybrid'] as const),
}));
export const RepoResults = results(resultItem(Repository));
/** A user search item, as upstream's user-search-result-item: the summary plus the public profile fields. */
export const UserItem = resultItem(Type.Object({
  ...Type.Omit(PublicUser, ['twitter_username', 'notification_email']).properties,
  suspended_at: Nullable(Type.String()),
}));
export type UserItem = Static<typeof UserItem>;
export const UserResults = results(UserItem);
export const LabelResults = results(resultItem(Label));
export const TopicResults = results(TopicItem);
export type IssueSearchQuery = Static<typeof IssueSearchQuery>;

const GitUser = Type.Object({ name: Type.String(), email: Type.String(), date: Type.String() });
/**
 * The committer's account, as upstream answers it, with the commit's committer identity:
 * upstream's schema names the item's committer a git-user (name, email, date), its answers
 * a user summary, so this record is both. Null when no account has the address.
 */
const CommitSearchCommitter = Type.Composite([SimpleUser, GitUser]);

/** A commit search item, as upstream's commit-search-result-item. */
export const CommitItem = Type.Object({
  url: Type.String(),
  sha: Type.String(),
  node_id: Type.String(),
  html_url: Type.String(),
  comments_url: Type.String(),
  commit: Type.Object({
    url: Type.String(),
    author: GitUser,
    committer: GitUser,
    message: Type.String(),
    tree: Type.Object({ sha: Type.String(), url: Type.String() }),
    comment_count: Type.Integer(),
    verification: Verification,
  }),
  author: Nullable(SimpleUser),
  committer: Nullable(CommitSearchCommitter),
  parents: Type.Array(Type.Object({ url: Type.String(), html_url: Type.String(), sha: Type.String() })),
  repository: Repository,
  score: Type.Number(),
  text_matches: Type.Optional(Type.Array(TextMatch)),
});
export type CommitItem = Static<typeof CommitItem>;

/** A code search item, as upstream's code-search-result-item. */
export const CodeItem = Type.Object({
  name: Type.String(),
  path: Type.String(),
  sha: Type.String(),
  url: Type.String(),
  git_url: Type.String(),
  html_url: Type.String(),
  repository: Repository,
  score: Type.Number(),
  file_size: Type.Integer(),
  language: Nullable(Type.String()),
  last_modified_at: Type.String(),
  /** The lines holding the keywords, each run as "first..last". */
  line_numbers: Type.Array(Type.String()),
  text_matches: Type.Optional(Type.Array(TextMatch)),
});
export type CodeItem = Static<typeof CodeItem>;

export const CommitResults = results(CommitItem);
export const CodeResults = results(CodeItem);
