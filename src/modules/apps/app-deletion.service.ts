// Deleting an app (its settings page, as upstream: there is no REST endpoint): every
// installation is announced `installation` `deleted` to the app's webhook, then the app
// goes with its keys, installations, installation tokens, user tokens, codes and
// authorizations (foreign keys cascade). The app's hook row stays so that those last
// deliveries can still go out (and be looked at); nothing else reaches it once the app
// is gone. The bot account stays too: what the app did remains attributed to it.
import { inTransaction, type AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { ValidationError } from '../../domain/errors.ts';
import * as repos from '../repos/repos.service.ts';
import type { App } from './apps.model.ts';
import { requireManagedApp } from './apps.service.ts';
import * as appStore from './apps.store.ts';
import { recordInstallationEvent } from './app-webhooks.service.ts';
import { presentInstallations, repositoryIdsOf, toInstallation } from './installations.service.ts';
import * as installStore from './installations.store.ts';
import { installationRecord } from './installations.views.ts';

/** Deletes the app the actor manages; `confirmName` must repeat its name, as upstream's form asks. */
export async function deleteApp(ctx: AppContext, actor: Actor, slug: string, confirmName: string | undefined): Promise<App> {
  const app = await requireManagedApp(ctx, actor, slug);
  if ((confirmName ?? '').trim() !== app.name) {
    throw ValidationError.field('Integration', 'verify', 'invalid', 'Type the name of the app to confirm its deletion');
  }
  await inTransaction(ctx, async (tx) => {
    for (let offset = 0; ; offset += 100) {
      const { rows } = await installStore.listInstallations(tx.db, { appId: app.id }, 100, offset);
      for (const presented of await presentInstallations(tx, rows.map(toInstallation))) {
        const repositories = await repos.reposByIds(tx, await repositoryIdsOf(tx, presented.installation));
        await recordInstallationEvent(tx, actor, app, 'installation', 'deleted', installationRecord(presented, tx.urls), { repositories });
      }
      if (rows.length < 100) break;
    }
    await appStore.deleteApp(tx.db, app.id);
  });
  return app;
}
