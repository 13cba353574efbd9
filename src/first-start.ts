// Work done once per data dir: the site admin from WHARF_ADMIN_TOKEN, the SSH host keys.
import type { AppContext } from './context.ts';
import { bootstrapAdmin } from './modules/admin/admin.service.ts';
import { ensureHostKeys } from './modules/meta/meta.host-keys.ts';

export async function firstStart(ctx: AppContext): Promise<void> {
  if (ctx.config.adminToken) await bootstrapAdmin(ctx, ctx.config.adminToken);
  ensureHostKeys(ctx.config.dataDir);
}
