// Organizations: creation, settings, memberships, and who may do what in them.
import { inTransaction, type AppContext } from '../../context.ts';
import { nowIso } from '../../domain/clock.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import * as users from '../users/users.service.ts';
import type { Membership, Organization } from './orgs.model.ts';
import * as store from './orgs.store.ts';

export interface NewOrganization {
  login: string;
  /** Login of the user who becomes the organization's first owner. */
  admin: string;
  profileName?: string | null;
  billingEmail?: string | null;
  description?: string | null;
}

export async function createOrganization(ctx: AppContext, input: NewOrganization): Promise<Organization> {
  return inTransaction(ctx, async (tx) => {
    const owner = await users.findAccount(tx, input.admin);
    if (!owner || owner.type !== 'User') {
      throw new ValidationError([{ resource: 'Organization', field: 'admin', code: 'invalid', value: input.admin, message: `admin '${input.admin}' is not a user` }]);
    }
    const account = await users.createAccount(tx, {
      login: input.login, type: 'Organization', name: input.profileName ?? null,
    });
    const settings = await store.insertSettings(tx.db, account.id, input.description ?? null, input.billingEmail ?? null);
    await store.upsertMembership(tx.db, account.id, owner.id, 'admin', nowIso(tx.clock));
    return { account, settings };
  });
}

/** The organization named `login`, or NotFoundError (also when `login` is a user). */
export async function requireOrganization(ctx: AppContext, login: string): Promise<Organization> {
  const account = await users.findAccount(ctx, login);
  if (!account || account.type !== 'Organization') throw new NotFoundError();
  const settings = await store.findSettings(ctx.db, account.id);
  if (!settings) throw new NotFoundError();
  return { account, settings };
}

export function membershipOf(ctx: AppContext, orgId: number, userId: number): Promise<Membership | null> {
  return store.findMembership(ctx.db, orgId, userId);
}
