// The notifications module's part of the wiring: fan-out of each event to the users
// it concerns, in the recording transaction.
import type { EventBus } from '../../events/bus.ts';
import { onEvent } from './notifications.fanout.ts';

export function register(bus: EventBus): void {
  bus.subscribe(onEvent);
}
