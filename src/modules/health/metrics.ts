// What GET /metrics exposes, in Prometheus's text format (by prom-client): requests by
// route pattern, method and status with their latencies; the depths of the background
// queues, read at each scrape; and the process's own figures (memory, CPU, event loop,
// garbage collection).
import { collectDefaultMetrics, Counter, Gauge, Histogram, prometheusContentType, Registry } from 'prom-client';

export const METRICS_CONTENT_TYPE = prometheusContentType;

export const JOB_QUEUES = ['search_index', 'org_migrations', 'migration_imports', 'source_imports'] as const;
export type JobQueue = (typeof JOB_QUEUES)[number];
export const DELIVERY_STATES = ['pending', 'in_progress', 'delivered', 'failed'] as const;
export type DeliveryStateName = (typeof DELIVERY_STATES)[number];

export interface QueueDepths {
  webhookDeliveries: Record<DeliveryStateName, number>;
  outboxUndispatched: number;
  jobsWaiting: Record<JobQueue, number>;
}

const DURATION = 'wharf_http_request_duration_seconds';
/** From a cached read (1 ms) to a clone of a large repository. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** The route label of requests that matched no route (their paths are unbounded; one series holds them all). */
export const UNMATCHED_ROUTE = '(unmatched)';

type RequestLabel = 'method' | 'route' | 'status';
type RequestLabels = Record<RequestLabel, string>;

let processRegistry: Registry | null = null;

/**
 * One per process (memory and the event loop are the process's, whatever the number of
 * servers in it), started at the first scrape: a Wharf nobody scrapes runs no monitor.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** One server's metrics. */
export class WharfMetrics {
  private readonly registry = new Registry();
  /** Apart, so that a scrape that could not read them leaves them out rather than showing zeros. */
  private readonly queueRegistry = new Registry();
  private readonly duration: Histogram<RequestLabel>;
  /** Label sets by route pattern, method and status, made once each: observing allocates none. */
  private readonly labelSets = new Map<string, Map<string, Map<number, RequestLabels>>>();
  private readonly deliveries: Gauge<'state'>;
  private readonly outbox: Gauge;
  private readonly jobs: Gauge<'queue'>;

  constructor() {
    const registers = [this.registry];
    const labelNames = ['method', 'route', 'status'] as const;
    const duration = new Histogram({
      name: DURATION, help: 'Time from a request\'s arrival to its answer sent, by route pattern, method and status.',
      labelNames, buckets: BUCKETS, registers,
    });
    this.duration = duration;
    // The histogram's _count under a name of its own, filled at each scrape: requests cost one observation.
    new Counter({
      name: 'wharf_http_requests_total', help: 'Requests answered, by route pattern, method and status.', labelNames, registers,
      async collect() {
        this.reset();
        for (const v of (await duration.get()).values) {
          if (v.metricName === `${DURATION}_count`) this.inc(v.labels as RequestLabels, v.value);
        }
      },
    });
    this.deliveries = new Gauge({
      name: 'wharf_webhook_deliveries',
      help: 'Webhook deliveries by state: pending and in_progress wait or are under way; delivered and failed are outcomes, kept until retention prunes them (a failed attempt that is retried stays failed, its retry is a delivery of its own).',
      labelNames: ['state'], registers: [this.queueRegistry],
    });
    this.outbox = new Gauge({
      name: 'wharf_outbox_undispatched', help: 'Events recorded and not yet dispatched to webhooks.', registers: [this.queueRegistry],
    });
    this.jobs = new Gauge({
      name: 'wharf_jobs_waiting', help: 'Background jobs waiting that a worker may take now, by queue.',
      labelNames: ['queue'], registers: [this.queueRegistry],
    });
  }

  /** The onResponse hook's work: map lookups and one observation. */
  observeRequest(route: string | undefined, method: string, status: number, seconds: number): void {
    this.duration.observe(this.labelsOf(route ?? UNMATCHED_ROUTE, method, status), seconds);
  }

  private labelsOf(route: string, method: string, status: number): RequestLabels {
    let methods = this.labelSets.get(route);
    if (!methods) this.labelSets.set(route, methods = new Map());
    let statuses = methods.get(method);
    if (!statuses) methods.set(method, statuses = new Map());
    let labels = statuses.get(status);
    if (!labels) statuses.set(status, labels = { method, route, status: String(status) });
    return labels;
  }

  /**
   * Everything, as Prometheus's text exposition format (version 0.0.4), with the queue
   * depths read for this scrape; null when they could not be read: then they are left
   * out rather than shown as zeros.
   */
  text(depths: QueueDepths | null): Promise<string> {
    const registries = [processMetrics(), this.registry];
    if (depths) {
      for (const state of DELIVERY_STATES) this.deliveries.set({ state }, depths.webhookDeliveries[state]);
      this.outbox.set(depths.outboxUndispatched);
      for (const queue of JOB_QUEUES) this.jobs.set({ queue }, depths.jobsWaiting[queue]);
      registries.push(this.queueRegistry);
    }
    return Registry.merge(registries).metrics();
  }
}
