// Upstream's credential authorizations of an organization with SAML SSO: the tokens its
// members authorized for it, listed and revoked by its owners.
import type { AppContext } from '../../context.ts';
import { requireScope, type Actor } from '../../domain/actor.ts';
import { NotFoundError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import { parseScopes } from '../../domain/scopes.ts';
import * as auth from '../auth/auth.service.ts';
import * as orgs from '../orgs/orgs.service.ts';
import type { Organization } from '../orgs/orgs.model.ts';
import * as users from '../users/users.service.ts';
import type { CredentialAuthorization } from './sso.model.ts';
import { ssoEnabled } from './sso.service.ts';
import * as store from './sso.store.ts';

async function requireSsoOwner(ctx: AppContext, actor: Actor, orgLogin: string): Promise<Organization> {
  requireScope(actor, ...orgs.SCOPES.read);
  const org = await orgs.requireOrganization(ctx, orgLogin);
  await orgs.requireOrgOwner(ctx, actor, org);
  if (!(await ssoEnabled(ctx, org.account.id))) throw new NotFoundError();
  return org;
}

export async function listCredentialAuthorizations(ctx: AppContext, actor: Actor, orgLogin: string, login: string | undefined, slice: Slice): Promise<Page<CredentialAuthorization>> {
  const org = await requireSsoOwner(ctx, actor, orgLogin);
  let userId: number | undefined;
  if (login !== undefined) {
    const account = await users.findAccount(ctx, login);
    if (!account) return { items: [], total: 0 };
    userId = account.id;
  }
  const [rows, total] = await Promise.all([
    store.listAuthorizations(ctx.db, org.account.id, userId, slice.perPage, slice.offset),
    store.countAuthorizations(ctx.db, org.account.id, userId),
  ]);
  const [tokens, accounts] = await Promise.all([
    auth.tokensByIds(ctx, rows.map((r) => r.token_id)),
    users.accountsByIds(ctx, [...new Set(rows.map((r) => r.user_id))]),
  ]);
  return {
    total,
    items: rows.flatMap((r) => {
      const token = tokens.get(r.token_id);
      const account = accounts.get(r.user_id);
      if (!token || !account) return [];
      return [{
        id: r.id, login: account.login, tokenId: r.token_id, tokenLastEight: token.token_last_eight, scopes: [...parseScopes(token.scopes)],
        note: token.note, kind: token.kind, authorizedAt: r.authorized_at, lastUsedAt: token.last_used_at, expiresAt: token.expires_at,
      }];
    }),
  };
}

export async function removeCredentialAuthorization(ctx: AppContext, actor: Actor, orgLogin: string, credentialId: number): Promise<void> {
  const org = await requireSsoOwner(ctx, actor, orgLogin);
  if (!(await store.deleteAuthorization(ctx.db, org.account.id, credentialId))) throw new NotFoundError();
}
