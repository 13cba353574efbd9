// OAuth apps as the domain sees them (the client secret is only ever a hash, never here).
import type { Account } from '../users/users.model.ts';

export interface OauthApp {
  id: number;
  ownerId: number;
  name: string;
  /** Homepage URL. */
  url: string | null;
  callbackUrl: string | null;
  description: string | null;
  clientId: string;
  createdAt: string;
  updatedAt: string;
}

export interface OwnedOauthApp {
  app: OauthApp;
  owner: Account | null;
}

/** An app with its client secret, the one time it is shown (creation, regeneration). */
export interface OauthAppWithSecret {
  app: OauthApp;
  clientSecret: string;
}
