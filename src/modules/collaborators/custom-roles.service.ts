// Custom repository roles of an organization: a named role inheriting one of the base
// roles (read, triage, write, maintain) plus additional permissions. Owners manage
// them; owners and repository administrators of the organization may read them.
// A collaborator holding one gets its base role's access (see collaborators.service).
import { inTransaction, type AppContext } from '../../context.ts';
import { requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { ForbiddenError, NotFoundError, ValidationError, type FieldError } from '../../domain/errors.ts';
import type { Organization } from '../orgs/orgs.model.ts';
import * as orgs from '../orgs/orgs.service.ts';
import * as repos from '../repos/repos.service.ts';
import { ROLE_BY_NAME, type CustomBaseRole, type CustomRole } from './collaborators.model.ts';
import * as store from './collaborators.store.ts';

export interface RoleDetail {
  role: CustomRole;
  org: Organization;
}

const READ_SCOPES = ['admin:org', 'repo'];
const WRITE_SCOPES = ['admin:org'];

/** Owners, and administrators of one of the organization's repositories. */
async function requireReader(ctx: AppContext, actor: Actor, login: string): Promise<Organization> {
  requireUser(actor);
  requireScope(actor, ...READ_SCOPES);
  const org = await orgs.requireOrganization(ctx, login);
  if (await orgs.ownsOrganization(ctx, actor, org)) return org;
  const { items } = await repos.listForOrg(ctx, actor, org.account.login, { limit: 100_000, offset: 0 });
  if (!items.some((p) => p.role === 'admin')) {
    throw new ForbiddenError('You must be an organization owner or a repository administrator in this organization to view its custom repository roles.');
  }
  return org;
}

async function requireOwner(ctx: AppContext, actor: Actor, login: string): Promise<Organization> {
  requireUser(actor);
  requireScope(actor, ...WRITE_SCOPES);
  const org = await orgs.requireOrganization(ctx, login);
  await orgs.requireOrgOwner(ctx, actor, org, 'You must be an organization owner to manage custom repository roles.');
  return org;
}

export async function listCustomRoles(ctx: AppContext, actor: Actor, login: string): Promise<{ org: Organization; roles: CustomRole[] }> {
  const org = await requireReader(ctx, actor, login);
  return { org, roles: await store.listRoles(ctx.db, org.account.id) };
}

export async function getCustomRole(ctx: AppContext, actor: Actor, login: string, id: number): Promise<RoleDetail> {
  const org = await requireReader(ctx, actor, login);
  const role = await store.findRole(ctx.db, org.account.id, id);
  if (!role) throw new NotFoundError();
  return { role, org };
}

export interface RoleInput {
  name?: string;
  description?: string | null;
  baseRole?: CustomBaseRole;
  permissions?: string[];
}

/** Names that already mean a role when granting: a custom role may not shadow them. */
const RESERVED = new Set(['pull', 'push', 'read', 'triage', 'write', 'maintain', 'admin']);
const PERMISSION = /^[a-z][a-z0-9_]*$/;
const MAX_NAME = 100;
const MAX_DESCRIPTION = 1000;

/** Checks the fields given; returns them normalized (trimmed name, unique permissions). */
async function checkInput(ctx: AppContext, orgId: number, input: RoleInput, exceptId: number | null): Promise<RoleInput> {
  const errors: FieldError[] = [];
  const out: RoleInput = { ...input };
  const invalid = (field: string, value: unknown, message: string, code: FieldError['code'] = 'invalid') =>
    errors.push({ resource: 'CustomRepositoryRole', field, code, value, message });
  if (input.name !== undefined) {
    out.name = input.name.trim();
    if (!out.name) invalid('name', input.name, 'name must not be blank');
    else if (out.name.length > MAX_NAME) invalid('name', input.name, `name is too long (maximum is ${MAX_NAME} characters)`);
    else if (RESERVED.has(out.name.toLowerCase())) invalid('name', input.name, `${out.name} is the name of a base role`);
    else {
      const other = await store.findRoleByName(ctx.db, orgId, out.name);
      if (other && other.id !== exceptId) invalid('name', input.name, 'Name has already been taken', 'already_exists');
    }
  }
  if (input.description !== undefined && input.description !== null) {
    out.description = input.description === '' ? null : input.description;
    if (input.description.length > MAX_DESCRIPTION) invalid('description', input.description, `description is too long (maximum is ${MAX_DESCRIPTION} characters)`);
  }
  if (input.permissions !== undefined) {
    out.permissions = [...new Set(input.permissions)];
    for (const p of out.permissions) if (!PERMISSION.test(p)) invalid('permissions', p, `${p} is not a permission name`);
  }
  if (errors.length) throw new ValidationError(errors);
  return out;
}

export async function createCustomRole(
  ctx: AppContext, actor: Actor, login: string, input: Required<Omit<RoleInput, 'description'>> & Pick<RoleInput, 'description'>,
): Promise<RoleDetail> {
  return inTransaction(ctx, async (tx) => {
    const org = await requireOwner(tx, actor, login);
    const c = await checkInput(tx, org.account.id, input, null);
    const role = await store.insertRole(tx.db, {
      orgId: org.account.id, name: c.name!, description: c.description ?? null, baseRole: c.baseRole!, permissions: c.permissions!, now: nowIso(tx.clock),
    });
    return { role, org };
  });
}

/** Changing the base role changes the access of everyone holding the role, at once. */
export async function updateCustomRole(ctx: AppContext, actor: Actor, login: string, id: number, input: RoleInput): Promise<RoleDetail> {
  return inTransaction(ctx, async (tx) => {
    const org = await requireOwner(tx, actor, login);
    const existing = await store.findRole(tx.db, org.account.id, id);
    if (!existing) throw new NotFoundError();
    const c = await checkInput(tx, org.account.id, input, existing.id);
    const role = await store.updateRole(tx.db, existing.id, c, nowIso(tx.clock));
    if (c.baseRole !== undefined && c.baseRole !== existing.baseRole) await store.rebaseHolders(tx.db, role.id, ROLE_BY_NAME[role.baseRole]!);
    return { role, org };
  });
}

/** Holders of a deleted role keep the base role it inherited, as upstream reassigns them. */
export async function deleteCustomRole(ctx: AppContext, actor: Actor, login: string, id: number): Promise<void> {
  const org = await requireOwner(ctx, actor, login);
  await store.deleteRole(ctx.db, org.account.id, id);
}
