// Protected branches on git pushes: receive-pack runs Wharf's pre-receive hook
// (hooks/pre-receive.mjs, through core.hooksPath given in the environment, so no
// repository directory is touched) with the rules that apply to the one pushing. The
// hook sees the pushed objects in git's quarantine, so force pushes, merge commits and
// unsigned commits are judged on what was sent; declining rejects the whole push.
import { fileURLToPath } from 'node:url';

/** One rule as the hook applies it, already resolved for the pusher. */
export interface PushRule {
  /** The rule's name or pattern, for messages. */
  pattern: string;
  /** Branch names it covers (without refs/heads/), as a regular expression source. */
  matches: string;
  /** The pusher may not update the branch at all: upstream's message why. */
  deny: string | null;
  allowForcePushes: boolean;
  allowDeletions: boolean;
  requireSignatures: boolean;
  requireLinearHistory: boolean;
}

const HOOKS_DIR = fileURLToPath(new URL('./hooks', import.meta.url));

/**
 * Environment for git http-backend that makes receive-pack apply `rules` (in priority
 * order: the hook takes the first that matches a branch). Empty without rules.
 */
export function protectedPushEnv(rules: readonly PushRule[]): Record<string, string> {
  if (rules.length === 0) return {};
  return {
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'core.hooksPath',
    GIT_CONFIG_VALUE_0: HOOKS_DIR,
    WHARF_NODE: process.execPath,
    WHARF_PUSH_RULES: JSON.stringify(rules),
  };
}
