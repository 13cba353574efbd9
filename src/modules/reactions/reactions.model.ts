// A reaction as the domain sees it.
import type { ReactionContent, ReactionSubjectType } from './reactions.rollup.ts';

export interface Reaction {
  id: number;
  subjectType: ReactionSubjectType;
  subjectId: number;
  userId: number;
  content: ReactionContent;
  createdAt: string;
}
