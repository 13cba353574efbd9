// Readiness report → GET /readyz's body. Pure.
import type { ReadinessReport, CheckOutcome } from './health.service.ts';
import type { Readiness, ReadinessCheck } from './health.schemas.ts';

function checkView(c: CheckOutcome): ReadinessCheck {
  return c.ok ? { status: 'ok', message: null } : { status: 'failed', message: c.problem };
}

export function readinessView(r: ReadinessReport): Readiness {
  return {
    status: r.ready ? 'ok' : 'unavailable',
    checks: { database: checkView(r.checks.database), storage: checkView(r.checks.storage), git: checkView(r.checks.git) },
  };
}
