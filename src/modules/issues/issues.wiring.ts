// The issues module's part of the wiring: default labels on new repositories and
// `referenced` events from pushed commit messages.
import type { EventBus } from '../../events/bus.ts';
import { onEvent } from './issues.subscribers.ts';

export function register(bus: EventBus): void {
  bus.subscribe(onEvent);
}
