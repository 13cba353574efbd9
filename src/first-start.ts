// Work done once per data dir: the site admin from WHARF_ADMIN_TOKEN; and the public
// OAuth apps (gh's) once there is an admin to own them. (SSH host keys are
// made on first use: meta.service.ts hostKeys.)
import type { AppContext } from './context.ts';
import { bootstrapAdmin } from './modules/admin/admin.service.ts';
import { seedPublicApps } from './modules/oauth/public-apps.ts';

export async function firstStart(ctx: AppContext): Promise<void> {
  if (ctx.config.adminToken) await bootstrapAdmin(ctx, ctx.config.adminToken);
  // At every start, not only the first: idempotent, and an admin may have come since.
  await seedPublicApps(ctx);
}
