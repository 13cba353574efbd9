// Length limits of user-given texts, in one place (issue #11, finding 8). Services check
// them, so REST and GraphQL hold the same bounds. Numbers are upstream's where it
// documents them (GitHub's validation messages, @octokit/openapi `maxLength`), else a
// bound no real text reaches.
import { ValidationError } from './errors.ts';

export const TEXT_LIMITS = {
  /** Label name and description (upstream: "name is too long (maximum is 50 characters)"). */
  labelName: 50,
  labelDescription: 100,
  /** Issue and pull request titles. */
  title: 256,
  /** Bodies of issues, pull requests, comments, reviews, discussions (upstream: 65536). */
  body: 65_536,
  milestoneTitle: 255,
  milestoneDescription: 65_536,
  repositoryName: 100,
  repositoryDescription: 350,
  /** Homepages and other URLs given as text. */
  url: 255,
  /** Team name and description, deployment environment, task and description. */
  teamName: 255,
  teamDescription: 1024,
  deploymentEnvironment: 255,
  deploymentTask: 255,
  deploymentDescription: 1024,
  /** A commit status's context. */
  statusContext: 255,
  /** Target, log and environment URLs of commit and deployment statuses; webhook URLs. */
  longUrl: 2048,
  /** A webhook's secret. */
  hookSecret: 255,
  /**
   * Commit and tag messages made through the API, merge commit titles and messages:
   * upstream sets no documented limit and imports carry long messages, so the bound is
   * generous (the body limit already caps the request).
   */
  gitMessage: 1_000_000,
} as const;

/**
 * Throws the spec's 422 (`code: "invalid"`) when `value` is longer than `max` characters.
 * The value itself is not echoed: it may be megabytes.
 */
export function requireMaxLength(resource: string, field: string, value: string | null | undefined, max: number): void {
  if (typeof value !== 'string' || value.length <= max) return;
  throw new ValidationError([{
    resource, field, code: 'invalid',
    message: `${field} is too long (maximum is ${max} characters)`,
  }]);
}
