// oauth-apps create
import * as auth from '../src/modules/auth/auth.service.ts';
import { flag, requiredOption, stringOption, type Command } from './args.ts';
import { accountNamed } from './lookup.ts';

export const oauthAppsCommands: Command[] = [
  {
    path: ['oauth-apps', 'create'],
    synopsis: '--owner <login> --name N [--url U] [--callback-url U] [--json]',
    summary: 'register an OAuth app; the client secret is shown only this once',
    positionals: [],
    options: {
      owner: { type: 'string' }, name: { type: 'string' }, url: { type: 'string' },
      'callback-url': { type: 'string' }, json: { type: 'boolean' },
    },
    async run({ app }, args, out) {
      const owner = await accountNamed(app, requiredOption(args, 'owner'));
      const { app: registered, clientSecret } = await auth.registerOauthApp(
        app, owner.id, requiredOption(args, 'name'), stringOption(args, 'url') ?? null, stringOption(args, 'callback-url') ?? null,
      );
      if (flag(args, 'json')) {
        out.json({
          id: registered.id, name: registered.name, owner: owner.login, url: registered.url,
          callback_url: registered.callback_url, client_id: registered.client_id, client_secret: clientSecret,
          created_at: registered.created_at,
        });
        return;
      }
      out.line(`client_id=${registered.client_id}`);
      out.line(`client_secret=${clientSecret}`);
      out.note(`OAuth app ${registered.id} "${registered.name}" of ${owner.login}; the secret will not be shown again`);
    },
  },
];
