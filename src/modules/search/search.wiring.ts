// The search module's part of the wiring: events queue repositories for the index worker.
import type { EventBus } from '../../events/bus.ts';
import { onEvent } from './search.events.ts';

export function register(bus: EventBus): void {
  bus.subscribe(onEvent);
}
