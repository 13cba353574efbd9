// The scim module's part of the bus: linking provisioned identities at SSO sign-in.
import type { EventBus } from '../../events/bus.ts';
import { linkProvisioned } from './scim.service.ts';

export function register(bus: EventBus): void {
  bus.provide('scimIdentityLink', linkProvisioned);
}
