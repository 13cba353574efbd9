// Accounts named on the command line, with messages an operator can act on.
import type { AppContext } from '../src/context.ts';
import type { Account } from '../src/modules/users/users.model.ts';
import * as users from '../src/modules/users/users.service.ts';
import { CliError } from './output.ts';

export async function accountNamed(ctx: AppContext, login: string): Promise<Account> {
  const account = await users.findAccount(ctx, login);
  if (!account) throw new CliError(`no account named "${login}"`);
  return account;
}

export async function userNamed(ctx: AppContext, login: string): Promise<Account> {
  const account = await accountNamed(ctx, login);
  if (account.type !== 'User') throw new CliError(`"${login}" is an organization, not a user`);
  return account;
}
