// Every module's subscribers and providers, in one place: the server and the CLI both
// start from wireModules(), so domain rules that live in subscribers (default labels,
// pull request synchronization, notifications) hold whichever entry point made the change.
// Modules register nothing when imported.
import { EventBus } from '../events/bus.ts';
import * as hooks from './hooks/hooks.wiring.ts';
import * as issues from './issues/issues.wiring.ts';
import * as notifications from './notifications/notifications.wiring.ts';
import * as pulls from './pulls/pulls.wiring.ts';
import * as releases from './releases/releases.wiring.ts';
import * as search from './search/search.wiring.ts';
import * as billing from './billing/billing.wiring.ts';
import * as apps from './apps/apps.wiring.ts';
import * as closing from './closing/closing.wiring.ts';
import * as checks from './checks/checks.wiring.ts';
import * as sso from './sso/sso.wiring.ts'; import * as scim from './scim/scim.wiring.ts';
import * as branchProtection from './branch-protection/branch-protection.wiring.ts';

/** Subscribers run in this order inside the recording transaction. */
const MODULES: { register(bus: EventBus): void }[] = [hooks, notifications, issues, pulls, releases, search, billing, apps, closing, checks, sso, scim, branchProtection];

export function wireModules(): EventBus {
  const bus = new EventBus();
  for (const module of MODULES) module.register(bus);
  return bus;
}
