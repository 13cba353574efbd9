// The subscriber bus: what modules do when an event is recorded (inside the recording
// transaction), and the capabilities one module offers another that may not import it
// (the dependency would point the wrong way). Each module adds its part in its
// `register(bus)`; src/modules/wiring.ts calls them all, for the server and the CLI.
import type { AppContext } from '../context.ts';
import type { DomainEvent } from './outbox.ts';

/**
 * Reacts to an event inside the transaction that records it (notification fan-out
 * does this), so the event and its consequences commit or roll back together.
 */
export type EventSubscriber = (ctx: AppContext, e: DomainEvent & { id: number }) => Promise<void>;

/**
 * Capabilities by name. A module that needs one declares it here by declaration
 * merging (`declare module '…/events/bus.ts' { interface Providers { … } }`), and the
 * module that has it provides it in its register(bus).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Providers {}

/**
 * What a background worker waits for. The outbox wakes only the webhook delivery worker,
 * and the search index and auto-merge queues only their own workers: waking every worker
 * on every recorded event made each of them run a claiming transaction after every
 * write. 'jobs' is every other job worker (imports,
 * migrations), woken by their own services.
 */
export type WorkKind = 'outbox' | 'search-index' | 'auto-merge' | 'jobs';

export class EventBus {
  private readonly subscribers: EventSubscriber[] = [];
  private readonly providers = new Map<keyof Providers, Providers[keyof Providers]>();
  private readonly workListeners = new Map<() => void, WorkKind>();

  subscribe(subscriber: EventSubscriber): void {
    this.subscribers.push(subscriber);
  }

  /** Runs every subscriber, in registration order, in the caller's transaction. */
  async publish(ctx: AppContext, e: DomainEvent & { id: number }): Promise<void> {
    for (const subscriber of this.subscribers) await subscriber(ctx, e);
  }

  provide<K extends keyof Providers>(name: K, provider: Providers[K]): void {
    this.providers.set(name, provider);
  }

  /** The provider registered under `name`, or null when no module offers it. */
  provider<K extends keyof Providers>(name: K): Providers[K] | null {
    return (this.providers.get(name) as Providers[K] | undefined) ?? null;
  }

  /**
   * Calls `listener` whenever work of `kind` was committed in this process (see wake.ts).
   * The listeners live on the bus, one per server, so that two servers in one process
   * (tests) keep their workers apart. Returns the unsubscribe function.
   */
  onWork(listener: () => void, kind: WorkKind): () => void {
    this.workListeners.set(listener, kind);
    return () => { this.workListeners.delete(listener); };
  }

  /**
   * Wakes the listeners for `kind`, or every listener when no kind is named; called once
   * the transaction that queued the work committed.
   */
  announceWork(kind?: WorkKind): void {
    for (const [listener, wanted] of this.workListeners) if (kind === undefined || wanted === kind) listener();
  }
}
