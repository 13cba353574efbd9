// An account as the domain sees it: a user or an organization (one id space, as upstream).
/** 'Bot': an app's own account (`{slug}[bot]`), which its installations act as. */
export type AccountType = 'User' | 'Organization' | 'Bot';

export interface Account {
  id: number;
  login: string;
  type: AccountType;
  name: string | null;
  company: string | null;
  blog: string | null;
  location: string | null;
  /** Primary address; shown in the profile unless emailPrivate. */
  email: string | null;
  emailPrivate: boolean;
  bio: string | null;
  twitterUsername: string | null;
  hireable: boolean | null;
  siteAdmin: boolean;
  suspendedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Counts shown on the detailed record; filled by the areas that own them. */
export interface AccountCounts {
  publicRepos: number;
  publicGists: number;
  followers: number;
  following: number;
  privateGists: number;
  totalPrivateRepos: number;
  ownedPrivateRepos: number;
  diskUsage: number;
  collaborators: number;
}

export const ZERO_COUNTS: AccountCounts = {
  publicRepos: 0, publicGists: 0, followers: 0, following: 0, privateGists: 0,
  totalPrivateRepos: 0, ownedPrivateRepos: 0, diskUsage: 0, collaborators: 0,
};

/** One of a user's e-mail addresses; the primary one is mirrored in Account.email. */
export interface UserEmail {
  id: number;
  userId: number;
  email: string;
  verified: boolean;
  primary: boolean;
  /** public or private on the primary address, null on the others. */
  visibility: 'public' | 'private' | null;
  createdAt: string;
}
