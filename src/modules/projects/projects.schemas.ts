// Request and response schemas of the classic project routes (projects, columns, cards,
// collaborators). Types are checked here; rules on values are the services'.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, PagedArray, StringEnum } from '../../http/schema-types.ts';
import { SimpleUser } from '../users/users.schemas.ts';
import { ORGANIZATION_PERMISSIONS, PROJECT_PERMISSIONS, PROJECT_STATES } from './projects.model.ts';

/** A stored id: larger numbers cannot name a row (and would overflow an integer column). */
const Id = () => Type.Integer({ minimum: 0, maximum: 2_147_483_647 });

export const ProjectParams = Type.Object({ project_id: Id() });
export const ColumnParams = Type.Object({ column_id: Id() });
export const CardParams = Type.Object({ card_id: Id() });
export const CollaboratorParams = Type.Object({ project_id: Id(), username: Type.String() });
export const OrgParams = Type.Object({ org: Type.String() });
export const UserParams = Type.Object({ username: Type.String() });
export { RepoParams } from '../repos/repos.schemas.ts';

const Paging = {
  per_page: Type.Optional(Type.String()),
  page: Type.Optional(Type.String()),
};
export const PageQuery = Type.Object(Paging);
/** `state` is checked by the service, so that a bad one is upstream's 422 with its field. */
export const ProjectListQuery = Type.Object({ state: Type.Optional(Type.String()), ...Paging });
export const CardListQuery = Type.Object({ archived_state: Type.Optional(StringEnum(['all', 'archived', 'not_archived'] as const)), ...Paging });
export const CollaboratorListQuery = Type.Object({ affiliation: Type.Optional(StringEnum(['outside', 'direct', 'all'] as const)), ...Paging });

export const CreateProjectBody = Type.Object({
  name: Type.String(),
  body: Type.Optional(Nullable(Type.String())),
});

export const UpdateProjectBody = Type.Object({
  name: Type.Optional(Type.String()),
  body: Type.Optional(Nullable(Type.String())),
  state: Type.Optional(StringEnum(PROJECT_STATES)),
  organization_permission: Type.Optional(StringEnum(ORGANIZATION_PERMISSIONS)),
  private: Type.Optional(Type.Boolean()),
});
export type UpdateProjectInput = Static<typeof UpdateProjectBody>;

export const ColumnBody = Type.Object({ name: Type.String() });
export const ColumnMoveBody = Type.Object({ position: Type.String({ pattern: '^(?:first|last|after:\\d+)$' }) });

/** Either a note, or content_id with content_type (the service tells which and checks the pair). */
export const CreateCardBody = Type.Object({
  note: Type.Optional(Nullable(Type.String())),
  content_id: Type.Optional(Id()),
  content_type: Type.Optional(Type.String()),
});
export type CreateCardInput = Static<typeof CreateCardBody>;

export const UpdateCardBody = Type.Object({
  note: Type.Optional(Nullable(Type.String())),
  archived: Type.Optional(Type.Boolean()),
});
export const CardMoveBody = Type.Object({
  position: Type.String({ pattern: '^(?:top|bottom|after:\\d+)$' }),
  column_id: Type.Optional(Id()),
});

export const CollaboratorBody = Type.Union([
  Type.Object({ permission: Type.Optional(StringEnum(PROJECT_PERMISSIONS)) }),
  Type.Null(),
]);

// ---------------------------------------------------------------- responses

export const Project = Type.Object({
  owner_url: Type.String(),
  url: Type.String(),
  html_url: Type.String(),
  columns_url: Type.String(),
  id: Type.Integer(),
  node_id: Type.String(),
  name: Type.String(),
  body: Nullable(Type.String()),
  number: Type.Integer(),
  state: Type.String(),
  creator: Nullable(SimpleUser),
  created_at: Type.String(),
  updated_at: Type.String(),
  organization_permission: Type.Optional(Type.String()),
  private: Type.Optional(Type.Boolean()),
});
export type ProjectView = Static<typeof Project>;
export const ProjectList = PagedArray(Project);

export const ProjectColumn = Type.Object({
  url: Type.String(),
  project_url: Type.String(),
  cards_url: Type.String(),
  id: Type.Integer(),
  node_id: Type.String(),
  name: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type ProjectColumnView = Static<typeof ProjectColumn>;
export const ProjectColumnList = PagedArray(ProjectColumn);

export const ProjectCard = Type.Object({
  url: Type.String(),
  id: Type.Integer(),
  node_id: Type.String(),
  note: Nullable(Type.String()),
  creator: Nullable(SimpleUser),
  created_at: Type.String(),
  updated_at: Type.String(),
  archived: Type.Boolean(),
  column_name: Type.String(),
  project_id: Type.String(),
  column_url: Type.String(),
  content_url: Type.Optional(Type.String()),
  project_url: Type.String(),
});
export type ProjectCardView = Static<typeof ProjectCard>;
export const ProjectCardList = PagedArray(ProjectCard);

/** The answer of a move: upstream's empty object. */
export const Moved = Type.Object({});

export const CollaboratorList = PagedArray(SimpleUser);
export const CollaboratorPermission = Type.Object({ permission: Type.String(), user: Nullable(SimpleUser) });

export const TeamProjectParams = Type.Object({ org: Type.String(), team_slug: Type.String(), project_id: Id() });
export const TeamParams = Type.Object({ org: Type.String(), team_slug: Type.String() });
export const TeamProjectBody = CollaboratorBody;
export const TeamProject = Type.Intersect([Project, Type.Object({
  permissions: Type.Object({ read: Type.Boolean(), write: Type.Boolean(), admin: Type.Boolean() }),
})]);
export type TeamProjectView = Static<typeof TeamProject>;
export const TeamProjectList = PagedArray(TeamProject);
