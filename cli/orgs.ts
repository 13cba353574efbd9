// orgs create
import * as orgs from '../src/modules/orgs/orgs.service.ts';
import { organizationSimple } from '../src/modules/orgs/orgs.views.ts';
import { requiredOption, stringOption, type Command } from './args.ts';

export const orgsCommands: Command[] = [
  {
    path: ['orgs', 'create'],
    synopsis: '<login> --admin <user-login> [--name N]',
    summary: 'create an organization owned by an existing user; prints it as JSON',
    positionals: ['login'],
    options: { admin: { type: 'string' }, name: { type: 'string' } },
    async run({ app }, args, out) {
      const org = await orgs.createOrganization(app, {
        login: args.positionals[0]!, admin: requiredOption(args, 'admin'), profileName: stringOption(args, 'name') ?? null,
      });
      out.json(organizationSimple(org.account, org.settings.description, app.urls));
    },
  },
];
