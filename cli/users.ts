// users create | delete | rename | promote | demote | suspend | unsuspend | list
import type { AppContext } from '../src/context.ts';
import type { Account } from '../src/modules/users/users.model.ts';
import * as users from '../src/modules/users/users.service.ts';
import * as webSession from '../src/modules/web-session/web-session.service.ts';
import { publicUser } from '../src/modules/users/users.views.ts';
import { flag, stringOption, type Command } from './args.ts';
import { userNamed } from './lookup.ts';
import type { Output } from './output.ts';

/** The user as GET /users/{username} shows it. */
async function printUser(ctx: AppContext, out: Output, account: Account): Promise<void> {
  const profile = await users.getProfile(ctx, account.login);
  out.json(publicUser(profile.account, profile.counts, ctx.urls));
}

function toggle(
  verb: string, summary: string, apply: (ctx: AppContext, account: Account) => Promise<Account>,
): Command {
  return {
    path: ['users', verb],
    synopsis: '<login>',
    summary,
    positionals: ['login'],
    async run({ app }, args, out) {
      const account = await apply(app, await userNamed(app, args.positionals[0]!));
      out.note(`${verb === 'promote' || verb === 'demote' ? `${verb}d` : `${verb}ed`} ${account.login}`);
      await printUser(app, out, account);
    },
  };
}

const PAGE = 100;

export const usersCommands: Command[] = [
  {
    path: ['users', 'create'],
    synopsis: '<login> [--email E] [--site-admin]',
    summary: 'create a user; prints it as JSON',
    positionals: ['login'],
    options: { email: { type: 'string' }, 'site-admin': { type: 'boolean' } },
    async run({ app }, args, out) {
      const account = await users.createAccount(app, {
        login: args.positionals[0]!, type: 'User', email: stringOption(args, 'email') ?? null, siteAdmin: flag(args, 'site-admin'),
      }, 'User');
      await printUser(app, out, account);
    },
  },
  {
    path: ['users', 'delete'],
    synopsis: '<login>',
    summary: 'delete a user with its tokens, OAuth apps and memberships',
    positionals: ['login'],
    async run({ app }, args, out) {
      const account = await userNamed(app, args.positionals[0]!);
      await users.deleteAccount(app, account);
      out.note(`deleted ${account.login}`);
    },
  },
  {
    path: ['users', 'rename'],
    synopsis: '<login> <new-login>',
    summary: 'change a user\'s login',
    positionals: ['login', 'new-login'],
    async run({ app }, args, out) {
      const account = await users.renameAccount(app, await userNamed(app, args.positionals[0]!), args.positionals[1]!);
      out.note(`renamed ${args.positionals[0]} to ${account.login}`);
      await printUser(app, out, account);
    },
  },
  toggle('promote', 'make a user a site administrator', (ctx, a) => users.setSiteAdmin(ctx, a, true)),
  toggle('demote', 'take site administration away from a user', (ctx, a) => users.setSiteAdmin(ctx, a, false)),
  toggle('suspend', 'suspend a user (its tokens stop working)', (ctx, a) => users.setSuspended(ctx, a, true)),
  toggle('unsuspend', 'lift a user\'s suspension', (ctx, a) => users.setSuspended(ctx, a, false)),
  {
    path: ['users', 'set-password'],
    synopsis: '<login>  (the password is read from standard input, never from the command line)',
    summary: 'set the password a user signs in with on Wharf\'s pages (never valid for the API or git)',
    positionals: ['login'],
    async run({ app }, args, out) {
      const account = await userNamed(app, args.positionals[0]!);
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      const password = Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
      await webSession.setPassword(app, account.id, password);
      out.note(`password set for ${account.login}; its browser sessions were signed out`);
    },
  },
  {
    path: ['users', 'list'],
    synopsis: '[--json]',
    summary: 'list every account (users and organizations) in signup order',
    positionals: [],
    options: { json: { type: 'boolean' } },
    async run({ app }, args, out) {
      const all: Account[] = [];
      for (let since = 0; ;) {
        const page = await users.listAccounts(app, since, PAGE);
        all.push(...page);
        if (page.length < PAGE) break;
        since = page[page.length - 1]!.id;
      }
      if (flag(args, 'json')) {
        out.json(all.map((a) => ({
          id: a.id, login: a.login, type: a.type, email: a.email, site_admin: a.siteAdmin,
          suspended_at: a.suspendedAt, created_at: a.createdAt,
        })));
        return;
      }
      const rows = [['ID', 'LOGIN', 'TYPE', 'SITE ADMIN', 'SUSPENDED'], ...all.map((a) => [
        String(a.id), a.login, a.type, a.siteAdmin ? 'yes' : '', a.suspendedAt ?? '',
      ])];
      const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
      for (const r of rows) out.line(r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd());
    },
  },
];
