// OAuth apps every Wharf has, as an enterprise server has them: the GitHub CLI's public
// app, so that `gh auth login` works against Wharf unchanged. gh's client id and secret
// are public (they ship in gh's source); its web flow sends the secret, its device
// flow none. Owned by the first site admin: oauth_apps.owner_id is required, and an
// instance without an admin has nobody to sign in with anyway. Registered at start
// (first-start.ts) and, should the first admin come later, on first use.
import type { AppContext } from '../../context.ts';
import * as auth from '../auth/auth.service.ts';
import * as users from '../users/users.service.ts';

export interface PublicApp {
  clientId: string;
  clientSecret: string;
  name: string;
  url: string;
  /** Enterprise servers register gh with this legacy callback (cli/cli#222, #650); any loopback port is allowed. */
  callbackUrl: string;
  description: string;
}

export const GH_CLI: PublicApp = {
  clientId: '178c6fc778ccc68e1d6a',
  clientSecret: '34ddeff2b558a23d38fba8a6de74f086ede1cc0b',
  name: 'GitHub CLI',
  url: 'https://cli.github.com/',
  callbackUrl: 'http://localhost/',
  description: 'The GitHub CLI (gh), registered on every Wharf so that gh auth login works unchanged.',
};

export const PUBLIC_APPS: readonly PublicApp[] = [GH_CLI];

async function firstSiteAdmin(ctx: AppContext): Promise<number | null> {
  for (let since = 0; ;) {
    const page = await users.listAccounts(ctx, since, 100);
    const admin = page.find((a) => a.type === 'User' && a.siteAdmin);
    if (admin) return admin.id;
    if (page.length < 100) return null;
    since = page[page.length - 1]!.id;
  }
}

/** Registers the public apps missing on this instance (none when there is no site admin yet). Idempotent. */
export async function seedPublicApps(ctx: AppContext): Promise<void> {
  const missing = [];
  for (const app of PUBLIC_APPS) if (!await auth.findOauthAppByClientId(ctx, app.clientId)) missing.push(app);
  if (missing.length === 0) return;
  const owner = await firstSiteAdmin(ctx);
  if (owner === null) return;
  for (const app of missing) {
    try {
      await auth.adoptOauthApp(ctx, owner, app.clientId, app.clientSecret, {
        name: app.name, url: app.url, callbackUrl: app.callbackUrl, description: app.description,
      });
    } catch (err) {
      // Another process registered it at the same moment (client_id is unique): fine.
      if (!await auth.findOauthAppByClientId(ctx, app.clientId)) throw err;
    }
  }
}

/** The app of a client id, registering a public app first if it is one and still missing. */
export async function findClientApp(ctx: AppContext, clientId: string | undefined) {
  if (!clientId) return null;
  const found = await auth.findOauthAppByClientId(ctx, clientId);
  if (found || !PUBLIC_APPS.some((a) => a.clientId === clientId)) return found;
  await seedPublicApps(ctx);
  return auth.findOauthAppByClientId(ctx, clientId);
}
