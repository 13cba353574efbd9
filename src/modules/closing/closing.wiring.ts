// The closing module's part of the wiring: closing keywords on pushes to the default
// branch and on pull requests merged into it.
import type { EventBus } from '../../events/bus.ts';
import { onEvent } from './closing.subscribers.ts';

export function register(bus: EventBus): void {
  bus.subscribe(onEvent);
}
