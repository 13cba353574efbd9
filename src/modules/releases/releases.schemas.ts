// Request and response schemas of the release, release asset and tag routes. Types
// are checked here; the rules on values (blank tag names, unknown commitish) are the
// service's.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, PagedArray, StringEnum } from '../../http/schema-types.ts';
import { ReactionRollup } from '../reactions/reactions.schemas.ts';
import { SimpleUser } from '../users/users.schemas.ts';
import { ASSET_STATES, MAKE_LATEST } from './releases.model.ts';

export { RepoParams } from '../repos/repos.schemas.ts';

/** A stored id: larger numbers cannot name a row (and would overflow an integer column). */
const Id = () => Type.Integer({ minimum: 0, maximum: 2_147_483_647 });

export const ReleaseParams = Type.Object({ owner: Type.String(), repo: Type.String(), release_id: Id() });
export const AssetParams = Type.Object({ owner: Type.String(), repo: Type.String(), asset_id: Id() });
/** A tag may hold slashes: the rest of the path is the tag. */
export const TagParams = Type.Object({ owner: Type.String(), repo: Type.String(), '*': Type.String() });
/** {tag}/{name}: the last segment is the file name. */
export const DownloadParams = Type.Object({ owner: Type.String(), repo: Type.String(), '*': Type.String() });

export const PageQuery = Type.Object({
  per_page: Type.Optional(Type.String()),
  page: Type.Optional(Type.String()),
});

export const UploadQuery = Type.Object({
  name: Type.Optional(Type.String()),
  label: Type.Optional(Type.String()),
});

export const CreateReleaseBody = Type.Object({
  tag_name: Type.String(),
  target_commitish: Type.Optional(Type.String()),
  name: Type.Optional(Nullable(Type.String())),
  body: Type.Optional(Nullable(Type.String())),
  draft: Type.Optional(Type.Boolean()),
  prerelease: Type.Optional(Type.Boolean()),
  discussion_category_name: Type.Optional(Type.String()),
  generate_release_notes: Type.Optional(Type.Boolean()),
  make_latest: Type.Optional(StringEnum(MAKE_LATEST)),
});
export type CreateReleaseBody = Static<typeof CreateReleaseBody>;

export const UpdateReleaseBody = Type.Object({
  tag_name: Type.Optional(Type.String()),
  target_commitish: Type.Optional(Type.String()),
  name: Type.Optional(Nullable(Type.String())),
  body: Type.Optional(Nullable(Type.String())),
  draft: Type.Optional(Type.Boolean()),
  prerelease: Type.Optional(Type.Boolean()),
  make_latest: Type.Optional(StringEnum(MAKE_LATEST)),
  discussion_category_name: Type.Optional(Type.String()),
});
export type UpdateReleaseBody = Static<typeof UpdateReleaseBody>;

export const GenerateNotesBody = Type.Object({
  tag_name: Type.String(),
  target_commitish: Type.Optional(Type.String()),
  previous_tag_name: Type.Optional(Type.String()),
  configuration_file_path: Type.Optional(Type.String()),
});
export type GenerateNotesBody = Static<typeof GenerateNotesBody>;

export const UpdateAssetBody = Type.Object({
  name: Type.Optional(Type.String()),
  label: Type.Optional(Nullable(Type.String())),
  state: Type.Optional(StringEnum(ASSET_STATES)),
});
export type UpdateAssetBody = Static<typeof UpdateAssetBody>;

export const ReleaseAsset = Type.Object({
  url: Type.String(),
  browser_download_url: Type.String(),
  id: Type.Integer(),
  node_id: Type.String(),
  name: Type.String(),
  label: Nullable(Type.String()),
  state: Type.String(),
  content_type: Type.String(),
  size: Type.Integer(),
  digest: Nullable(Type.String()),
  download_count: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
  uploader: Nullable(SimpleUser),
});
export type ReleaseAssetView = Static<typeof ReleaseAsset>;
export const ReleaseAssetList = PagedArray(ReleaseAsset);

export const Release = Type.Object({
  url: Type.String(),
  assets_url: Type.String(),
  upload_url: Type.String(),
  html_url: Type.String(),
  id: Type.Integer(),
  // Null only when the author's account was deleted.
  author: Nullable(SimpleUser),
  node_id: Type.String(),
  tag_name: Type.String(),
  target_commitish: Type.String(),
  name: Nullable(Type.String()),
  draft: Type.Boolean(),
  immutable: Type.Boolean(),
  prerelease: Type.Boolean(),
  created_at: Type.String(),
  updated_at: Type.String(),
  published_at: Nullable(Type.String()),
  assets: Type.Array(ReleaseAsset),
  tarball_url: Nullable(Type.String()),
  zipball_url: Nullable(Type.String()),
  // Which of the three the Accept header's body format asks for (raw: body alone).
  body: Type.Optional(Nullable(Type.String())),
  body_html: Type.Optional(Type.String()),
  body_text: Type.Optional(Type.String()),
  /** The users the body @mentions who have an account (each once). */
  mentions_count: Type.Integer(),
  reactions: ReactionRollup,
});
export type ReleaseView = Static<typeof Release>;
export const ReleaseList = PagedArray(Release);

export const ReleaseNotes = Type.Object({ name: Type.String(), body: Type.String() });

export const Tag = Type.Object({
  name: Type.String(),
  zipball_url: Type.String(),
  tarball_url: Type.String(),
  commit: Type.Object({ sha: Type.String(), url: Type.String() }),
  node_id: Type.String(),
});
export type TagView = Static<typeof Tag>;
export const TagList = PagedArray(Tag);
