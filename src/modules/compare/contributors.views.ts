// A contributor → upstream's contributor record (a user with a count, or an address). Pure.
import type { Urls } from '../../urls.ts';
import { simpleUser } from '../users/users.views.ts';
import type { Contributor } from './contributors.service.ts';

export function contributorView(urls: Urls, c: Contributor) {
  if (c.kind === 'user') return { ...simpleUser(c.account, urls), contributions: c.contributions };
  return { type: 'Anonymous' as const, email: c.email, name: c.name, contributions: c.contributions };
}
