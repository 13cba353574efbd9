// The accounts side of an import: every login the archive names mapped to an account
// here (created, without any credential, when missing), then the owner (the
// organization, existing or created, or a user) with its members and teams. Runs in
// one transaction with the record of what it created.
import type { AppContext } from '../../context.ts';
import { ValidationError } from '../../domain/errors.ts';
import { importMember, importTeam } from '../orgs/orgs.import.ts';
import * as orgs from '../orgs/orgs.service.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import { archiveError } from './import.archive.ts';
import type { CreatedIds, ImportConflict, ImportReport } from './import.model.ts';
import type { ArchiveRecords } from './import.records.ts';

export interface Accounts {
  owner: Account;
  /** Account of each archive login (lower-cased). */
  byLogin: Map<string, Account>;
  /** Stands in for authors the source had deleted (user: null) and for logins the archive does not name. */
  fallback: Account;
  /** The team here of each archive team (by lower-cased name): made by the import or merged into. */
  teams: Map<string, number>;
}

/** Every login the records name, in a stable order. */
function loginsNamed(r: ArchiveRecords): string[] {
  const named = [
    ...r.users.map((u) => u.login),
    ...r.organizations.flatMap((o) => o.members.map((m) => m.login)),
    ...r.teams.flatMap((t) => t.members.map((m) => m.login)),
    ...r.milestones.map((m) => m.creator),
    ...[...r.issues, ...r.pulls].flatMap((i) => [i.user, i.closedBy, ...i.assignees]),
    ...r.pulls.map((p) => p.mergedBy),
    ...r.comments.map((c) => c.user),
    ...r.reactions.map((x) => x.user),
    ...r.reviews.map((x) => x.user),
    ...r.reviewComments.map((x) => x.user),
    ...r.releases.map((x) => x.author),
  ];
  const seen = new Map<string, string>();
  for (const l of named) if (l !== null && !seen.has(l.toLowerCase())) seen.set(l.toLowerCase(), l);
  return [...seen.values()];
}

/** Maps or creates each account; `tx` is the caller's transaction. */
export async function importAccounts(
  tx: AppContext, r: ArchiveRecords, o: { targetOrg: string | null; creator: Account | null },
  created: CreatedIds, report: ImportReport,
): Promise<Accounts> {
  const profiles = new Map(r.users.map((u) => [u.login.toLowerCase(), u]));
  const byLogin = new Map<string, Account>();
  for (const login of loginsNamed(r)) {
    const existing = await users.findAccount(tx, login);
    if (existing && existing.type !== 'Organization') {
      byLogin.set(login.toLowerCase(), existing);
      report.users.mapped.push(existing.login);
      continue;
    }
    if (existing) throw archiveError(`the archive's user ${login} is an organization here`);
    const p = profiles.get(login.toLowerCase());
    // No e-mail, password or token: the person signs in once a site admin gives them a password.
    let account = p?.type === 'Bot' ? await users.createBotAccount(tx, login) : await users.createAccount(tx, { login, type: 'User', name: p?.name ?? null });
    if (p && p.type === 'User' && (p.company || p.blog || p.location || p.bio)) {
      account = await users.updateAccountProfile(tx, account, { company: p.company, blog: p.blog, location: p.location, bio: p.bio });
    }
    created.users.push(account.id);
    byLogin.set(login.toLowerCase(), account);
    report.users.created.push(account.login);
  }
  const owner = await importOwner(tx, r, o, byLogin, created, report);
  // Deleted authors become the importing site admin, else the archive's first owner: a person, never the organization.
  const firstOwner = r.organizations[0]?.members.find((m) => m.role === 'admin');
  const fallback = o.creator ?? (firstOwner ? byLogin.get(firstOwner.login.toLowerCase()) : undefined) ?? owner;
  const teams = await importTeams(tx, r, owner, byLogin, created, report.conflicts);
  return { owner, byLogin, fallback, teams };
}

async function importOwner(
  tx: AppContext, r: ArchiveRecords, o: { targetOrg: string | null; creator: Account | null },
  byLogin: Map<string, Account>, created: CreatedIds, report: ImportReport,
): Promise<Account> {
  const source = r.organizations[0] ?? null;
  const login = o.targetOrg ?? source?.login ?? null;
  if (login === null) {
    // A user migration: the repositories go back to their owner (mapped or created above).
    const owners = [...new Set(r.repositories.map((x) => x.owner.toLowerCase()))];
    if (owners.length !== 1) throw archiveError('the archive has no organization and its repositories have not exactly one owner; name one with --org');
    const user = byLogin.get(owners[0]!) ?? await users.findAccount(tx, owners[0]!);
    if (!user || user.type !== 'User') throw archiveError(`the repositories' owner ${owners[0]} is not a user here`);
    report.owner = { login: user.login, type: 'User', created: created.users.includes(user.id) };
    return user;
  }
  const existing = await users.findAccount(tx, login);
  if (existing && existing.type !== 'Organization') throw new ValidationError([{ resource: 'MigrationImport', field: 'org', code: 'invalid', value: login, message: `${login} is a user, not an organization` }]);
  const members = (source?.members ?? []).flatMap((m) => {
    const a = byLogin.get(m.login.toLowerCase());
    return a && a.type === 'User' ? [{ account: a, role: m.role }] : [];
  });
  let org: Account;
  if (existing) {
    org = existing;
  } else {
    const first = members.find((m) => m.role === 'admin')?.account ?? o.creator;
    if (!first) throw archiveError(`the archive names no owner of ${login}`);
    const made = await orgs.createOrganization(tx, { login, admin: first.login, profileName: source?.name ?? null, description: source?.description ?? null });
    org = made.account;
    created.organization = org.id;
  }
  for (const m of members) {
    if (await importMember(tx, org.id, m.account.id, m.role) && existing) created.memberships.push({ orgId: org.id, userId: m.account.id });
  }
  report.owner = { login: org.login, type: 'Organization', created: !existing };
  return org;
}

/** Teams, parents before their children; a team whose name the organization has already gets the members added. */
async function importTeams(
  tx: AppContext, r: ArchiveRecords, owner: Account, byLogin: Map<string, Account>, created: CreatedIds, conflicts: ImportConflict[],
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  if (owner.type !== 'Organization') return ids;
  const waiting = [...r.teams];
  while (waiting.length) {
    const i = waiting.findIndex((t) => t.parent === null || ids.has(t.parent.toLowerCase()) || !r.teams.some((x) => x.name.toLowerCase() === t.parent!.toLowerCase()));
    if (i < 0) throw archiveError('the teams\' parents form a cycle');
    const t = waiting.splice(i, 1)[0]!;
    const members = t.members.flatMap((m) => {
      const a = byLogin.get(m.login.toLowerCase());
      return a ? [{ userId: a.id, role: m.role }] : [];
    });
    const parentId = t.parent === null ? null : ids.get(t.parent.toLowerCase()) ?? null;
    const result = await importTeam(tx, owner.id, { name: t.name, description: t.description, privacy: parentId ? 'closed' : t.privacy, permission: t.permission, parentId, members });
    ids.set(t.name.toLowerCase(), result.team.id);
    if (result.created) created.teams.push(result.team.id);
    else conflicts.push({ kind: 'team', source: t.name, resolution: 'merged', target: result.team.slug, message: `${owner.login} has a team ${result.team.name} already; its members were added to it` });
  }
  return ids;
}
