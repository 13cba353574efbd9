// The apps module's part of the wiring: it tells the webhook side which installations
// reach a repository (their apps' hooks are sent its events).
import type { EventBus } from '../../events/bus.ts';
import { installationsReaching } from './app-webhooks.service.ts';

export function register(bus: EventBus): void {
  bus.provide('appInstallationsOf', installationsReaching);
}
