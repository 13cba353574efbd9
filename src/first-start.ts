// Work done once per data dir: the site admin from WHARF_ADMIN_TOKEN. (SSH host keys are
// made on first use: meta.service.ts hostKeys.)
import type { AppContext } from './context.ts';
import { bootstrapAdmin } from './modules/admin/admin.service.ts';

export async function firstStart(ctx: AppContext): Promise<void> {
  if (ctx.config.adminToken) await bootstrapAdmin(ctx, ctx.config.adminToken);
}
