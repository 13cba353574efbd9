// Domain records of apps, their keys and installations.
import type { Permissions } from './app-permissions.ts';

export interface App {
  id: number;
  ownerId: number;
  /** The app's bot account, `{slug}[bot]`. */
  botUserId: number;
  slug: string;
  name: string;
  description: string | null;
  externalUrl: string;
  callbackUrl: string | null;
  setupUrl: string | null;
  clientId: string;
  webhookUrl: string | null;
  webhookContentType: 'json' | 'form';
  webhookInsecureSsl: string;
  webhookActive: boolean;
  public: boolean;
  permissions: Permissions;
  events: string[];
  /** User-to-server tokens expire after 8 hours and come with a refresh token. */
  userTokensExpire: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface AppKey {
  id: number;
  appId: number;
  publicKey: string;
  fingerprint: string;
  createdAt: string;
}

/** What the manifest conversion hands back once: the app and every secret it needs. */
export interface AppCredentials {
  app: App;
  clientSecret: string;
  webhookSecret: string | null;
  pem: string;
}

export interface Installation {
  id: number;
  appId: number;
  accountId: number;
  repositorySelection: 'all' | 'selected';
  permissions: Permissions;
  events: string[];
  suspendedAt: string | null;
  suspendedBy: number | null;
  createdAt: string;
  updatedAt: string;
}
