// Account → API representation. Pure; every URL from the URL builder.
import { encodeNodeId } from '../../domain/node-id.ts';
import type { Urls } from '../../urls.ts';
import type { Account, AccountCounts } from './users.model.ts';

export interface SimpleUser {
  login: string;
  id: number;
  node_id: string;
  avatar_url: string;
  gravatar_id: string;
  url: string;
  html_url: string;
  followers_url: string;
  following_url: string;
  gists_url: string;
  starred_url: string;
  subscriptions_url: string;
  organizations_url: string;
  repos_url: string;
  events_url: string;
  received_events_url: string;
  type: string;
  site_admin: boolean;
  user_view_type: 'public';
}

export interface PublicUser extends SimpleUser {
  name: string | null;
  company: string | null;
  blog: string | null;
  location: string | null;
  email: string | null;
  hireable: boolean | null;
  bio: string | null;
  twitter_username: string | null;
  notification_email: string | null;
  public_repos: number;
  public_gists: number;
  followers: number;
  following: number;
  created_at: string;
  updated_at: string;
}

export interface PrivateUser extends PublicUser {
  private_gists: number;
  total_private_repos: number;
  owned_private_repos: number;
  disk_usage: number;
  collaborators: number;
  two_factor_authentication: boolean;
  plan: { name: string; space: number; private_repos: number; collaborators: number };
}

export function simpleUser(a: Account, urls: Urls): SimpleUser {
  const u = urls.api('users', a.login);
  return {
    login: a.login,
    id: a.id,
    node_id: encodeNodeId(a.type, a.id),
    avatar_url: urls.avatar(a.id),
    gravatar_id: '',
    url: u,
    html_url: urls.html(a.login),
    followers_url: `${u}/followers`,
    following_url: `${u}/following{/other_user}`,
    gists_url: `${u}/gists{/gist_id}`,
    starred_url: `${u}/starred{/owner}{/repo}`,
    subscriptions_url: `${u}/subscriptions`,
    organizations_url: `${u}/orgs`,
    repos_url: `${u}/repos`,
    events_url: `${u}/events{/privacy}`,
    received_events_url: `${u}/received_events`,
    type: a.type,
    site_admin: a.siteAdmin,
    // GitHub's private profiles show a reduced view; Wharf has none, so every view is the public one.
    user_view_type: 'public',
  };
}

// The richer records extend a fresh simple record in place rather than spreading it:
// these views run on every profile read, and spreads of large objects are slow in V8.
export function publicUser(a: Account, counts: AccountCounts, urls: Urls): PublicUser {
  const o = simpleUser(a, urls) as PublicUser;
  o.name = a.name;
  o.company = a.company;
  o.blog = a.blog;
  o.location = a.location;
  o.email = a.emailPrivate ? null : a.email;
  o.hireable = a.hireable;
  o.bio = a.bio;
  o.twitter_username = a.twitterUsername;
  // Private to the user, as upstream: others' view of a profile never has it.
  o.notification_email = null;
  o.public_repos = counts.publicRepos;
  o.public_gists = counts.publicGists;
  o.followers = counts.followers;
  o.following = counts.following;
  o.created_at = a.createdAt;
  o.updated_at = a.updatedAt;
  return o;
}

/** A self-hosted server has no billing plan; this one states the real limits: none. */
const UNLIMITED_PLAN = { name: 'enterprise', space: 976562499, private_repos: 9999, collaborators: 0 };

export function privateUser(a: Account, counts: AccountCounts, urls: Urls): PrivateUser {
  const o = publicUser(a, counts, urls) as PrivateUser;
  // Wharf has no separate notifications address: it is the primary one, upstream's default.
  o.notification_email = a.email;
  o.private_gists = counts.privateGists;
  o.total_private_repos = counts.totalPrivateRepos;
  o.owned_private_repos = counts.ownedPrivateRepos;
  o.disk_usage = counts.diskUsage;
  o.collaborators = counts.collaborators;
  o.two_factor_authentication = false;
  o.plan = { ...UNLIMITED_PLAN };
  return o;
}
