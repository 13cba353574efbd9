// The sub-resources of a branch's protection (…/protection/enforce_admins,
// required_signatures, required_status_checks, required_pull_request_reviews,
// restrictions): each reads or changes one part of the rule, 404 when the branch is
// not protected or (reading) the part is not enabled, in upstream's words.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { BranchRules } from './protection.model.ts';
import { changeProtection, getProtection, reviewsOf, type Protection } from './protection.service.ts';

export type Flag = 'enforceAdmins' | 'requiredSignatures';
export type Part = 'requiredStatusChecks' | 'requiredPullRequestReviews' | 'restrictions';

const NOT_ENABLED: Record<Part, string> = {
  requiredStatusChecks: 'Required status checks not enabled',
  requiredPullRequestReviews: 'Required pull request reviews not enabled',
  restrictions: 'Push restrictions not enabled',
};

export interface Where { owner: string; repo: string; branch: string }

export function getFlag(ctx: AppContext, actor: Actor, w: Where): Promise<Protection> {
  return getProtection(ctx, actor, w.owner, w.repo, w.branch);
}

export function setFlag(ctx: AppContext, actor: Actor, w: Where, flag: Flag, enabled: boolean): Promise<Protection> {
  return changeProtection(ctx, actor, w.owner, w.repo, w.branch, (r) => ({ ...r, [flag]: enabled }));
}

/** A part of the rule, 404 when it is not enabled. */
export async function getPart(ctx: AppContext, actor: Actor, w: Where, part: Part): Promise<Protection> {
  const p = await getProtection(ctx, actor, w.owner, w.repo, w.branch);
  if (p.rule.rules[part] === null) throw new NotFoundError(NOT_ENABLED[part]);
  return p;
}

export async function removePart(ctx: AppContext, actor: Actor, w: Where, part: Part): Promise<void> {
  await changeProtection(ctx, actor, w.owner, w.repo, w.branch, (r) => {
    if (r[part] === null) throw new NotFoundError(NOT_ENABLED[part]);
    return { ...r, [part]: null };
  });
}

export interface StatusChecksChange {
  strict?: boolean;
  contexts?: string[];
  checks?: { context: string; app_id?: number }[];
}

/** PATCH …/required_status_checks: changes what is given of an enabled part. */
export function updateStatusChecks(ctx: AppContext, actor: Actor, w: Where, c: StatusChecksChange): Promise<Protection> {
  return changeProtection(ctx, actor, w.owner, w.repo, w.branch, (r): BranchRules => {
    const current = r.requiredStatusChecks;
    if (!current) throw new NotFoundError(NOT_ENABLED.requiredStatusChecks);
    if (c.contexts && c.checks) {
      throw ValidationError.field('Branch', 'checks', 'invalid', 'Only one of contexts and checks can be given');
    }
    const checks = c.checks
      ? c.checks.map((x) => ({ context: x.context, appId: x.app_id === undefined || x.app_id === -1 ? null : x.app_id }))
      : c.contexts ? c.contexts.map((context) => ({ context, appId: null })) : current.checks;
    return { ...r, requiredStatusChecks: { strict: c.strict ?? current.strict, checks: [...new Map(checks.map((x) => [x.context, x])).values()] } };
  });
}

export interface ReviewsChange {
  dismiss_stale_reviews?: boolean;
  require_code_owner_reviews?: boolean;
  required_approving_review_count?: number;
  require_last_push_approval?: boolean;
}

/** PATCH …/required_pull_request_reviews: enables the part if needed, then changes what is given. */
export function updateReviews(ctx: AppContext, actor: Actor, w: Where, c: ReviewsChange): Promise<Protection> {
  return changeProtection(ctx, actor, w.owner, w.repo, w.branch, (r): BranchRules => {
    const cur = r.requiredPullRequestReviews;
    return {
      ...r,
      requiredPullRequestReviews: reviewsOf({
        dismiss_stale_reviews: c.dismiss_stale_reviews ?? cur?.dismissStaleReviews,
        require_code_owner_reviews: c.require_code_owner_reviews ?? cur?.requireCodeOwnerReviews,
        required_approving_review_count: c.required_approving_review_count ?? cur?.requiredApprovingReviewCount,
        require_last_push_approval: c.require_last_push_approval ?? cur?.requireLastPushApproval,
      }),
    };
  });
}

/** How a list sub-resource changes: POST adds, PUT replaces, DELETE removes. */
export type ListChange = 'add' | 'set' | 'remove';

/** Upstream's bound on a rule's lists (its restrictions say so; contexts are held to the same). */
export const MAX_LIST = 100;

/**
 * …/required_status_checks/contexts: changes the required contexts of an enabled part.
 * A context kept keeps the app it was bound to; a new one may be set by any app.
 */
export function changeContexts(ctx: AppContext, actor: Actor, w: Where, change: ListChange, contexts: readonly string[]): Promise<Protection> {
  return changeProtection(ctx, actor, w.owner, w.repo, w.branch, (r): BranchRules => {
    const current = r.requiredStatusChecks;
    if (!current) throw new NotFoundError(NOT_ENABLED.requiredStatusChecks);
    const given = [...new Set(contexts)];
    const byContext = new Map(current.checks.map((c) => [c.context, c]));
    const entry = (context: string) => byContext.get(context) ?? { context, appId: null };
    const checks = change === 'remove' ? current.checks.filter((c) => !given.includes(c.context))
      : change === 'set' ? given.map(entry)
      : [...current.checks, ...given.filter((c) => !byContext.has(c)).map(entry)];
    if (checks.length > MAX_LIST) throw ValidationError.field('Branch', 'contexts', 'invalid', `A branch can require at most ${MAX_LIST} status checks`);
    return { ...r, requiredStatusChecks: { ...current, checks } };
  });
}
