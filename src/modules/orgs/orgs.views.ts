// Organization → API representation.
import { encodeNodeId } from '../../domain/node-id.ts';
import type { Urls } from '../../urls.ts';
import type { Account } from '../users/users.model.ts';

export interface OrganizationSimple {
  login: string;
  id: number;
  node_id: string;
  url: string;
  repos_url: string;
  events_url: string;
  hooks_url: string;
  issues_url: string;
  members_url: string;
  public_members_url: string;
  avatar_url: string;
  description: string | null;
}

export function organizationSimple(a: Account, description: string | null, urls: Urls): OrganizationSimple {
  const u = urls.api('orgs', a.login);
  return {
    login: a.login,
    id: a.id,
    node_id: encodeNodeId('Organization', a.id),
    url: u,
    repos_url: `${u}/repos`,
    events_url: `${u}/events`,
    hooks_url: `${u}/hooks`,
    issues_url: `${u}/issues`,
    members_url: `${u}/members{/member}`,
    public_members_url: `${u}/public_members{/member}`,
    avatar_url: urls.avatar(a.id),
    description,
  };
}
