// Which account names are acceptable: upstream's rules (alphanumerics and single
// inner hyphens, at most 39 characters), minus names Wharf's own routes use.
import { ValidationError } from '../../domain/errors.ts';

const LOGIN = /^[a-zA-Z0-9](?:[a-zA-Z0-9]|-(?=[a-zA-Z0-9])){0,38}$/;

const RESERVED = new Set([
  'api', 'graphql', 'explorer', 'avatars', 'assets', 'login', 'logout', 'oauth', 'settings', 'site',
  'new', 'organizations', 'orgs', 'users', 'user', 'repos', 'search', 'notifications', 'meta', 'zen',
  'mascot', 'rate_limit', 'gitignore', 'licenses', 'markdown', 'emojis', 'events', 'feeds', 'issues',
  'ghost', 'apps', 'app', 'installations', 'scim', 'enterprises', 'applications', 'authorizations',
  'gists', 'codes_of_conduct', 'hub', 'marketplace', 'teams', 'setup', 'stafftools', 'status',
]);

export function validateLogin(login: unknown, resource: string, field = 'login'): string {
  if (typeof login !== 'string' || login === '') {
    throw ValidationError.field(resource, field, 'missing_field');
  }
  if (!LOGIN.test(login)) {
    throw new ValidationError([{
      resource, field, code: 'invalid', value: login,
      message: `${field} may only contain alphanumeric characters or single hyphens, cannot begin or end with a hyphen, and must be at most 39 characters`,
    }]);
  }
  if (RESERVED.has(login.toLowerCase())) {
    throw new ValidationError([{ resource, field, code: 'invalid', value: login, message: `${field} '${login}' is reserved` }]);
  }
  return login;
}
