// Root map, service metadata and rate-limit overview → API representations. Pure.
import type { MetaRangeName } from '../../config.ts';
import type { RateLimitResource } from '../../http/rate-limit.ts';
import type { Urls } from '../../urls.ts';
import type { HostKey } from './meta.host-keys.ts';
import type { RateBudgetStatus } from './meta.service.ts';
import type { RateLimit, RateLimitOverview, RootLinks, ServiceMeta } from './meta.schemas.ts';

const SEARCH_PAGING = '{&page,per_page,sort,order}';
const REPO_LISTING = '{?type,page,per_page,sort}';

/** Upstream's templates, character for character, on Wharf's base address. */
export function rootLinks(urls: Urls): RootLinks {
  return {
    current_user_url: urls.api('user'),
    current_user_authorizations_html_url: `${urls.html('settings', 'connections', 'applications')}{/client_id}`,
    authorizations_url: urls.api('authorizations'),
    code_search_url: urls.raw(`/search/code?q={query}${SEARCH_PAGING}`),
    commit_search_url: urls.raw(`/search/commits?q={query}${SEARCH_PAGING}`),
    emails_url: urls.api('user', 'emails'),
    emojis_url: urls.api('emojis'),
    events_url: urls.api('events'),
    feeds_url: urls.api('feeds'),
    followers_url: urls.api('user', 'followers'),
    following_url: urls.raw('/user/following{/target}'),
    gists_url: urls.raw('/gists{/gist_id}'),
    hub_url: urls.api('hub'),
    issue_search_url: urls.raw(`/search/issues?q={query}${SEARCH_PAGING}`),
    issues_url: urls.api('issues'),
    keys_url: urls.api('user', 'keys'),
    label_search_url: urls.raw('/search/labels?q={query}&repository_id={repository_id}{&page,per_page}'),
    notifications_url: urls.api('notifications'),
    organization_url: urls.raw('/orgs/{org}'),
    organization_repositories_url: urls.raw(`/orgs/{org}/repos${REPO_LISTING}`),
    organization_teams_url: urls.raw('/orgs/{org}/teams'),
    public_gists_url: urls.api('gists', 'public'),
    rate_limit_url: urls.api('rate_limit'),
    repository_url: urls.raw('/repos/{owner}/{repo}'),
    repository_search_url: urls.raw(`/search/repositories?q={query}${SEARCH_PAGING}`),
    current_user_repositories_url: urls.raw(`/user/repos${REPO_LISTING}`),
    starred_url: urls.raw('/user/starred{/owner}{/repo}'),
    starred_gists_url: urls.api('gists', 'starred'),
    topic_search_url: urls.raw('/search/topics?q={query}{&page,per_page}'),
    user_url: urls.raw('/users/{user}'),
    user_organizations_url: urls.api('user', 'orgs'),
    user_repositories_url: urls.raw(`/users/{user}/repos${REPO_LISTING}`),
    user_search_url: urls.raw(`/search/users?q={query}${SEARCH_PAGING}`),
  };
}

function fingerprintOf(keys: readonly HostKey[], type: HostKey['type']): string {
  const key = keys.find((k) => k.type === type);
  if (!key) throw new Error(`host key ${type} missing`);
  return key.fingerprint;
}

/**
 * The domains Wharf's services answer on. Wharf serves everything it has from the one
 * address of WHARF_BASE_URL: its pages, the Git LFS objects and archives clients download
 * (storage), and the runner protocol self-hosted runners call (actions, and what they must
 * reach inbound). It has no package registry, Codespaces, Copilot or artifact attestations,
 * so those name no domain, and no attestation trust domain of its own.
 */
function domains(urls: Urls): ServiceMeta['domains'] {
  const own = [urls.hostname];
  return {
    website: own,
    codespaces: [],
    copilot: [],
    packages: [],
    storage: own,
    actions: own,
    actions_inbound: { full_domains: own, wildcard_domains: [] },
    artifact_attestations: { trust_domain: '', services: [] },
  };
}

/** Fingerprints without the "SHA256:" prefix, as upstream publishes them. */
export function serviceMeta(keys: readonly HostKey[], ranges: Record<MetaRangeName, string[]>, urls: Urls): ServiceMeta {
  return {
    // Git over HTTP and the API take tokens only; an account password is never checked.
    verifiable_password_authentication: false,
    ssh_key_fingerprints: {
      SHA256_RSA: fingerprintOf(keys, 'RSA'),
      SHA256_DSA: fingerprintOf(keys, 'DSA'),
      SHA256_ECDSA: fingerprintOf(keys, 'ECDSA'),
      SHA256_ED25519: fingerprintOf(keys, 'ED25519'),
    },
    ssh_keys: keys.map((k) => k.openssh),
    hooks: ranges.hooks,
    web: ranges.web,
    api: ranges.api,
    git: ranges.git,
    packages: ranges.packages,
    pages: ranges.pages,
    importer: ranges.importer,
    actions: ranges.actions,
    dependabot: ranges.dependabot,
    // Upstream lists the keys it signs the commits it makes (web edits, merges) with. Wharf
    // signs none of the commits it makes — it has no signing key (protection.push.ts) — so
    // there is no key to list.
    commit_signing_keys: [],
    domains: domains(urls),
  };
}

/** Like the X-RateLimit-* headers: used never shown above the limit, remaining never below 0. */
function rateLimit(s: RateBudgetStatus): RateLimit {
  return {
    limit: s.limit,
    used: Math.min(s.used, s.limit),
    remaining: Math.max(0, s.limit - s.used),
    reset: s.resetAt,
    resource: s.resource,
  };
}

export function rateLimitOverview(statuses: readonly RateBudgetStatus[]): RateLimitOverview {
  const resources = Object.fromEntries(statuses.map((s) => [s.resource, rateLimit(s)])) as Record<RateLimitResource, RateLimit>;
  return { resources, rate: resources.core };
}
