// Request and response schemas of the meta routes: /, /meta, /mascot, /rate_limit.
import { Type, type Static } from '@sinclair/typebox';

/** GET /: RFC 6570 templates of the main endpoints, the keys upstream's root lists. */
export const RootLinks = Type.Object({
  current_user_url: Type.String(),
  current_user_authorizations_html_url: Type.String(),
  authorizations_url: Type.String(),
  code_search_url: Type.String(),
  commit_search_url: Type.String(),
  emails_url: Type.String(),
  emojis_url: Type.String(),
  events_url: Type.String(),
  feeds_url: Type.String(),
  followers_url: Type.String(),
  following_url: Type.String(),
  gists_url: Type.String(),
  hub_url: Type.String(),
  issue_search_url: Type.String(),
  issues_url: Type.String(),
  keys_url: Type.String(),
  label_search_url: Type.String(),
  notifications_url: Type.String(),
  organization_url: Type.String(),
  organization_repositories_url: Type.String(),
  organization_teams_url: Type.String(),
  public_gists_url: Type.String(),
  rate_limit_url: Type.String(),
  repository_url: Type.String(),
  repository_search_url: Type.String(),
  current_user_repositories_url: Type.String(),
  starred_url: Type.String(),
  starred_gists_url: Type.String(),
  topic_search_url: Type.String(),
  user_url: Type.String(),
  user_organizations_url: Type.String(),
  user_repositories_url: Type.String(),
  user_search_url: Type.String(),
});
export type RootLinks = Static<typeof RootLinks>;

const Ranges = Type.Array(Type.String());

/** GET /meta ("api-overview" upstream). */
export const ServiceMeta = Type.Object({
  verifiable_password_authentication: Type.Boolean(),
  ssh_key_fingerprints: Type.Object({
    SHA256_RSA: Type.String(),
    SHA256_DSA: Type.String(),
    SHA256_ECDSA: Type.String(),
    SHA256_ED25519: Type.String(),
  }),
  ssh_keys: Type.Array(Type.String()),
  hooks: Ranges,
  web: Ranges,
  api: Ranges,
  git: Ranges,
  packages: Ranges,
  pages: Ranges,
  importer: Ranges,
  actions: Ranges,
  dependabot: Ranges,
  commit_signing_keys: Type.Array(Type.String()),
  domains: Type.Object({
    website: Ranges,
    codespaces: Ranges,
    copilot: Ranges,
    packages: Ranges,
    storage: Ranges,
    actions: Ranges,
    actions_inbound: Type.Object({ full_domains: Ranges, wildcard_domains: Ranges }),
    artifact_attestations: Type.Object({ trust_domain: Type.String(), services: Ranges }),
  }),
});
export type ServiceMeta = Static<typeof ServiceMeta>;

export const MascotQuery = Type.Object({
  s: Type.Optional(Type.String()),
});

export const RateLimit = Type.Object({
  limit: Type.Integer(),
  used: Type.Integer(),
  remaining: Type.Integer(),
  reset: Type.Integer(),
  resource: Type.String(),
});
export type RateLimit = Static<typeof RateLimit>;

/** GET /rate_limit ("rate-limit-overview" upstream). */
export const RateLimitOverview = Type.Object({
  resources: Type.Object({
    core: RateLimit,
    search: RateLimit,
    graphql: RateLimit,
    integration_manifest: RateLimit,
    source_import: RateLimit,
    code_scanning_upload: RateLimit,
    actions_runner_registration: RateLimit,
    scim: RateLimit,
    dependency_snapshots: RateLimit,
    code_search: RateLimit,
  }),
  rate: RateLimit,
});
export type RateLimitOverview = Static<typeof RateLimitOverview>;
