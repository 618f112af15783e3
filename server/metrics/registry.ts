import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics (GET /metrics). One registry per process:
 * the API records request durations, the runner scan timings and leases, the
 * webhook worker its deliveries. Counts of scans by status are read from the
 * database when scraped (they are the same from every process).
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'scanward_' });

const SCAN_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600];

export const httpMetrics = {
  requestDuration: new Histogram({
    name: 'scanward_http_request_duration_seconds',
    help: 'HTTP request duration by route template, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  }),
};

export const scanMetrics = {
  byStatus: new Gauge({
    name: 'scanward_scans',
    help: 'Scans in the database by status (all organizations)',
    labelNames: ['status'] as const,
    registers: [registry],
  }),
  queueWait: new Histogram({
    name: 'scanward_scan_queue_wait_seconds',
    help: 'Time between the creation of a scan and its first claim by a runner',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  }),
  phaseDuration: new Histogram({
    name: 'scanward_scan_phase_duration_seconds',
    help: 'Duration of completed scan phases, by phase',
    labelNames: ['phase'] as const,
    buckets: SCAN_BUCKETS,
    registers: [registry],
  }),
  scanDuration: new Histogram({
    name: 'scanward_scan_duration_seconds',
    help: 'Time from the creation of a scan to its end, by final status',
    labelNames: ['status'] as const,
    buckets: SCAN_BUCKETS,
    registers: [registry],
  }),
  leasesHeld: new Gauge({
    name: 'scanward_runner_leases_held',
    help: 'Scans this process holds a runner lease on',
    registers: [registry],
  }),
};

export const webhookMetrics = {
  deliveries: new Counter({
    name: 'scanward_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome',
    labelNames: ['outcome'] as const,
    registers: [registry],
  }),
};
