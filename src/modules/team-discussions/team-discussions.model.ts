// Team discussions (posts on a team's page) and their comments, as the domain sees them.

export interface TeamDiscussion {
  id: number;
  teamId: number;
  /** Per team, from 1. */
  number: number;
  authorId: number | null;
  title: string;
  body: string;
  bodyHtml: string;
  bodyVersion: string;
  /** Visible only to the team's members and the organization's owners. */
  private: boolean;
  pinned: boolean;
  commentsCount: number;
  lastEditedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface TeamDiscussionComment {
  id: number;
  discussionId: number;
  /** Per discussion, from 1. */
  number: number;
  authorId: number | null;
  body: string;
  bodyHtml: string;
  bodyVersion: string;
  lastEditedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export type Direction = 'asc' | 'desc';
