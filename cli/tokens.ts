// tokens create | revoke
import { parseScopes } from '../src/domain/scopes.ts';
import * as auth from '../src/modules/auth/auth.service.ts';
import { flag, stringOption, type Command } from './args.ts';
import { userNamed } from './lookup.ts';

export const tokensCommands: Command[] = [
  {
    path: ['tokens', 'create'],
    synopsis: '<login> [--scopes repo,user,...] [--note N] [--json]',
    summary: 'issue a personal access token; the token is shown only this once',
    positionals: ['login'],
    options: { scopes: { type: 'string' }, note: { type: 'string' }, json: { type: 'boolean' } },
    async run({ app }, args, out) {
      const user = await userNamed(app, args.positionals[0]!);
      const { token, record } = await auth.issueToken(app, {
        userId: user.id,
        scopes: parseScopes(stringOption(args, 'scopes') ?? ''),
        note: stringOption(args, 'note') ?? null,
        kind: 'personal',
      });
      if (flag(args, 'json')) {
        out.json({
          id: record.id, token, token_last_eight: record.token_last_eight, scopes: parseScopes(record.scopes),
          note: record.note, user: user.login, created_at: record.created_at, expires_at: record.expires_at,
        });
        return;
      }
      out.line(token);
      out.note(`token ${record.id} for ${user.login}, scopes: ${record.scopes || '(none)'}; it will not be shown again`);
    },
  },
  {
    path: ['tokens', 'revoke'],
    synopsis: '<login>',
    summary: 'revoke every token of a user',
    positionals: ['login'],
    async run({ app }, args, out) {
      const user = await userNamed(app, args.positionals[0]!);
      const n = await auth.revokeTokens(app, user.id);
      out.note(`revoked ${n} token${n === 1 ? '' : 's'} of ${user.login}`);
    },
  },
];
