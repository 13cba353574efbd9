// The billing module's part of the wiring: pushes credit advanced security committers,
// new organization repositories take the organization's default, and the repos and
// orgs modules reach the advanced security switches through providers.
import type { EventBus } from '../../events/bus.ts';
import * as security from './advanced-security.service.ts';

export function register(bus: EventBus): void {
  bus.subscribe(security.onEvent);
  bus.provide('repositoryAdvancedSecurity', {
    enabled: security.enabledRepositories,
    set: security.setRepositoryEnabled,
  });
  bus.provide('organizationAdvancedSecurity', {
    enabledForNew: security.enabledForNewRepositories,
    setEnabledForNew: security.setEnabledForNewRepositories,
  });
}
