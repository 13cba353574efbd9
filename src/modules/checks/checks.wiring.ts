// The checks module's part of the wiring: pushes make the installed apps' check suites.
import type { EventBus } from '../../events/bus.ts';
import { onPush } from './suites.service.ts';

export function register(bus: EventBus): void {
  bus.subscribe(async (ctx, e) => { if (e.event === 'push') await onPush(ctx, e); });
}
