// Addresses, query strings and form bodies of the web pages. Form fields are optional
// strings: a missing one is answered with the form again and its error inline.
import { Type, type Static } from '@sinclair/typebox';

const Field = Type.Optional(Type.String({ maxLength: 65536 }));
const Name = Type.String({ maxLength: 256 });

export const LoginParams = Type.Object({ login: Name });
export const RepoParams = Type.Object({ owner: Name, repo: Name });
export const RepoRestParams = Type.Object({ owner: Name, repo: Name, '*': Type.String({ maxLength: 8192 }) });
export const ShaParams = Type.Object({ owner: Name, repo: Name, sha: Name });
/** The number stays a string: anything but digits is a 404 page, not a validation error. */
export const NumberParams = Type.Object({ owner: Name, repo: Name, number: Type.String({ maxLength: 20 }) });

export const PageQuery = Type.Object({ page: Type.Optional(Type.String({ maxLength: 12 })) });
export const CommitsQuery = Type.Object({ page: Type.Optional(Type.String({ maxLength: 12 })), path: Type.Optional(Type.String({ maxLength: 4096 })) });
export const IssuesQuery = Type.Object({
  page: Type.Optional(Type.String({ maxLength: 12 })),
  state: Type.Optional(Type.String({ maxLength: 12 })),
  labels: Type.Optional(Type.String({ maxLength: 1024 })),
  milestone: Type.Optional(Type.String({ maxLength: 20 })),
});

export const IssueForm = Type.Object({ authenticity_token: Field, title: Field, body: Field });
export type IssueForm = Static<typeof IssueForm>;
export const CommentForm = Type.Object({ authenticity_token: Field, body: Field });
export const MergeForm = Type.Object({ authenticity_token: Field, sha: Field });
export const MilestonesQuery = Type.Object({
  page: Type.Optional(Type.String({ maxLength: 12 })),
  state: Type.Optional(Type.String({ maxLength: 12 })),
  sort: Type.Optional(Type.String({ maxLength: 32 })),
  direction: Type.Optional(Type.String({ maxLength: 12 })),
});
export const MilestoneQuery = Type.Object({ page: Type.Optional(Type.String({ maxLength: 12 })), closed: Type.Optional(Type.String({ maxLength: 12 })) });
export const ProfileQuery = Type.Object({ page: Type.Optional(Type.String({ maxLength: 12 })), tab: Type.Optional(Type.String({ maxLength: 32 })) });
export const OrgParams = Type.Object({ org: Name });
export const TeamParams = Type.Object({ org: Name, team_slug: Name });
/** A comment's reactions: the comment's id beside the issue's number (both strings, as NumberParams). */
export const CommentParams = Type.Object({ owner: Name, repo: Name, number: Type.String({ maxLength: 20 }), comment_id: Type.String({ maxLength: 20 }) });
/** The review form: the body and which of the three buttons was pressed (`event`). */
export const ReviewForm = Type.Object({ authenticity_token: Field, body: Field, event: Field });
/** One reaction button: `content:add` or `content:remove`, what the page offered, so a second click of the same page changes nothing. */
export const ReactionForm = Type.Object({ authenticity_token: Field, reaction: Field });
export const PullForm = Type.Object({ authenticity_token: Field, title: Field, body: Field, draft: Field });
/** The milestone forms; a field left out is left unchanged (the close and reopen buttons send `state` alone). */
export const MilestoneForm = Type.Object({ authenticity_token: Field, title: Field, description: Field, due_on: Field, state: Field });
export type MilestoneForm = Static<typeof MilestoneForm>;
/** The repository settings pages: a hook's id, and a delivery's beside it (strings, as NumberParams). */
export const HookParams = Type.Object({ owner: Name, repo: Name, hook_id: Type.String({ maxLength: 20 }) });
export const DeliveryParams = Type.Object({ owner: Name, repo: Name, hook_id: Type.String({ maxLength: 20 }), delivery_id: Type.String({ maxLength: 20 }) });
export const CollaboratorForm = Type.Object({ authenticity_token: Field, login: Field, permission: Field });
export type CollaboratorForm = Static<typeof CollaboratorForm>;
export const HookForm = Type.Object({ authenticity_token: Field, url: Field, content_type: Field, secret: Field, events: Field, active: Field });
export type HookForm = Static<typeof HookForm>;
export const TokenForm = Type.Object({ authenticity_token: Field });
