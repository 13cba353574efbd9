// The hooks module's part of the wiring: a deleted repository's or organization's
// hooks go with it.
import type { EventBus } from '../../events/bus.ts';
import { onEvent } from './hooks.events.ts';

export function register(bus: EventBus): void {
  bus.subscribe(onEvent);
}
