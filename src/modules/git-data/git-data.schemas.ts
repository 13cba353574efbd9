// Request and response schemas of the Git database routes.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../http/schema-types.ts';

export const RepoParams = Type.Object({ owner: Type.String(), repo: Type.String() });
/** A trailing path that may hold slashes (refs, branch names, file paths). */
export const RepoRestParams = Type.Object({ owner: Type.String(), repo: Type.String(), '*': Type.String() });
/** The same where the trailing path may be absent (the repository root, all refs). */
export const RepoOptionalRestParams = Type.Object({ owner: Type.String(), repo: Type.String(), '*': Type.Optional(Type.String()) });
export const BlobParams = Type.Object({ owner: Type.String(), repo: Type.String(), file_sha: Type.String() });
export const CommitParams = Type.Object({ owner: Type.String(), repo: Type.String(), commit_sha: Type.String() });
export const TagParams = Type.Object({ owner: Type.String(), repo: Type.String(), tag_sha: Type.String() });

export const CreateBlobBody = Type.Object({
  content: Type.String(),
  encoding: Type.Optional(Type.String()),
});
export type CreateBlobBody = Static<typeof CreateBlobBody>;

export const TREE_MODES = ['100644', '100755', '040000', '160000', '120000'] as const;

export const CreateTreeBody = Type.Object({
  tree: Type.Array(Type.Object({
    path: Type.Optional(Type.String()),
    mode: Type.Optional(StringEnum(TREE_MODES)),
    type: Type.Optional(StringEnum(['blob', 'tree', 'commit'] as const)),
    sha: Type.Optional(Nullable(Type.String())),
    content: Type.Optional(Type.String()),
  })),
  base_tree: Type.Optional(Type.String()),
});
export type CreateTreeBody = Static<typeof CreateTreeBody>;

export const GetTreeQuery = Type.Object({ recursive: Type.Optional(Type.String()) });

/** name and e-mail are checked by the service, which names the field in full (author.name). */
export const PersonBody = Type.Object({
  name: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  date: Type.Optional(Type.String()),
});

export const CreateCommitBody = Type.Object({
  message: Type.String(),
  tree: Type.String(),
  parents: Type.Optional(Type.Array(Type.String())),
  author: Type.Optional(PersonBody),
  committer: Type.Optional(PersonBody),
  signature: Type.Optional(Type.String()),
});
export type CreateCommitBody = Static<typeof CreateCommitBody>;

export const CreateRefBody = Type.Object({ ref: Type.String(), sha: Type.String() });
export const UpdateRefBody = Type.Object({ sha: Type.String(), force: Type.Optional(Type.Boolean()) });

export const CreateTagBody = Type.Object({
  tag: Type.String(),
  message: Type.String(),
  object: Type.String(),
  type: StringEnum(['commit', 'tree', 'blob'] as const),
  tagger: Type.Optional(PersonBody),
});
export type CreateTagBody = Static<typeof CreateTagBody>;

// ---------------------------------------------------------------- responses

export const Verification = Type.Object({
  verified: Type.Boolean(),
  reason: Type.String(),
  signature: Nullable(Type.String()),
  payload: Nullable(Type.String()),
  verified_at: Nullable(Type.String()),
});

export const GitPerson = Type.Object({ name: Type.String(), email: Type.String(), date: Type.String() });
const ShaUrl = Type.Object({ sha: Type.String(), url: Type.String() });

export const ShortBlob = Type.Object({ url: Type.String(), sha: Type.String() });

export const Blob = Type.Object({
  sha: Type.String(),
  node_id: Type.String(),
  size: Type.Integer(),
  url: Type.String(),
  content: Type.String(),
  encoding: Type.String(),
});

export const GitTree = Type.Object({
  sha: Type.String(),
  url: Type.String(),
  tree: Type.Array(Type.Object({
    path: Type.String(),
    mode: Type.String(),
    type: Type.String(),
    sha: Type.String(),
    size: Type.Optional(Type.Integer()),
    url: Type.Optional(Type.String()),
  })),
  truncated: Type.Boolean(),
});

export const GitCommit = Type.Object({
  sha: Type.String(),
  node_id: Type.String(),
  url: Type.String(),
  html_url: Type.String(),
  author: GitPerson,
  committer: GitPerson,
  tree: ShaUrl,
  message: Type.String(),
  parents: Type.Array(Type.Object({ sha: Type.String(), url: Type.String(), html_url: Type.String() })),
  verification: Verification,
});

export const GitRef = Type.Object({
  ref: Type.String(),
  node_id: Type.String(),
  url: Type.String(),
  object: Type.Object({ type: Type.String(), sha: Type.String(), url: Type.String() }),
});

export const GitTag = Type.Object({
  node_id: Type.String(),
  tag: Type.String(),
  sha: Type.String(),
  url: Type.String(),
  message: Type.String(),
  tagger: GitPerson,
  object: Type.Object({ type: Type.String(), sha: Type.String(), url: Type.String() }),
  verification: Verification,
});

// The representations as the views build them (views return these, so a field a view
// adds and the schema misses fails type checking instead of being dropped).
export type VerificationView = Static<typeof Verification>;
export type GitPersonView = Static<typeof GitPerson>;
export type ShortBlobView = Static<typeof ShortBlob>;
export type BlobView = Static<typeof Blob>;
export type GitTreeView = Static<typeof GitTree>;
export type GitTreeEntryView = GitTreeView['tree'][number];
export type GitCommitView = Static<typeof GitCommit>;
export type GitRefView = Static<typeof GitRef>;
export type GitTagView = Static<typeof GitTag>;
