// The App record other modules embed (performed_via_github_app on issues, comments and
// events): every app a page of records names, loaded in one go, then presented.
import type { AppContext } from '../../context.ts';
import { appsByIds, presentApps } from './apps.service.ts';
import { appRecord } from './apps.views.ts';

export type AppRecordView = ReturnType<typeof appRecord>;

/** The App records of `ids` (nulls and repeats allowed); ids of deleted apps are left out. */
export async function appRecordsByIds(ctx: AppContext, ids: readonly (number | null)[]): Promise<Map<number, AppRecordView>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  // Most records were made by people: no query at all then.
  if (wanted.length === 0) return new Map();
  const presented = await presentApps(ctx, [...(await appsByIds(ctx, wanted)).values()]);
  return new Map(presented.map((p) => [p.app.id, appRecord(p, ctx.urls)]));
}
