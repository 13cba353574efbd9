// Runners → API representations at the server's present time (status depends on it).
import type { AppContext } from '../../context.ts';
import { isoSeconds } from '../../domain/clock.ts';
import type { RunnerRecord } from './runners.service.ts';
import { runner } from './runners.views.ts';

/** Runners silent since before this moment show offline. */
function offlineBefore(ctx: AppContext): string {
  return isoSeconds(new Date(ctx.clock.now().getTime() - ctx.config.runnerOfflineSeconds * 1000));
}

export function presentRunners(ctx: AppContext, records: readonly RunnerRecord[]) {
  const before = offlineBefore(ctx);
  return records.map((r) => runner(r, before));
}

export function presentRunner(ctx: AppContext, record: RunnerRecord) {
  return runner(record, offlineBefore(ctx));
}
