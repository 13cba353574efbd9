// The releases module's part of the wiring: a deleted repository's asset files go with it.
import type { EventBus } from '../../events/bus.ts';
import { onEvent } from './releases.events.ts';

export function register(bus: EventBus): void {
  bus.subscribe(onEvent);
}
