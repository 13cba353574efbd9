// The sso module's part of the bus: the SSO refusals that orgs.sso-gate enforces.
import type { EventBus } from '../../events/bus.ts';
import { refusals } from './sso.service.ts';

export function register(bus: EventBus): void {
  bus.provide('organizationSso', { refusals });
}
