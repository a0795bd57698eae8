import { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { parseArgs } from 'node:util';
import { IssueAccessToken } from '../users/commands/issue-access-token';
import { ROLES, Role } from '../access/permissions';
import { RegisterUser } from '../users/commands/register-user';
import { RevokeAccessToken } from '../users/commands/revoke-access-token';
import { SetQuietHours } from '../users/commands/set-quiet-hours';
import { UsersQueries } from '../users/users.queries';
import { campaignTrail } from './campaign-trail';
import { rebuildProjections } from './rebuild-projections';
import { importLeads } from './import-leads';
import { CliUsageError } from './usage-error';
import { Sealer } from '../shared/sealing/sealer';
import { AppConfig } from '../infrastructure/config/app-config';

/** A rebuild projects every event itself: its app skips the projections' catch-up at start. */
export const projectsAtStart = (command: string) => command !== 'projections:rebuild';

type CliCommand = (app: INestApplicationContext, args: string[]) => Promise<unknown>;

/**
 * `--token -Ab…`: a value may start with a dash (one token in 64 does), which parseArgs takes
 * only written `--token=-Ab…`. A value is whatever follows an option, unless it is an option itself.
 */
function joinDashedValues(args: string[], spec: Record<string, unknown>): string[] {
  const isOption = (arg: string) => arg.startsWith('--') && arg.slice(2).split('=')[0] in spec;
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const next = args[i + 1];
    if (isOption(args[i]) && !args[i].includes('=') && next?.startsWith('-') && !isOption(next)) joined.push(`${args[i]}=${args[++i]}`);
    else joined.push(args[i]);
  }
  return joined;
}

export function parse<T extends Record<string, { type: 'string' }>>(args: string[], spec: T, allowPositionals: boolean) {
  try {
    const { values, positionals } = parseArgs({ args: joinDashedValues(args, spec), options: spec, strict: true, allowPositionals });
    return { values: values as { [K in keyof T]?: string }, positionals };
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
}

const options = <T extends Record<string, { type: 'string' }>>(args: string[], spec: T) => parse(args, spec, false).values;

function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new CliUsageError(`${flag} must be a whole number`);
  return Number(value);
}

export interface CliCommandSpec {
  /** Its arguments, as `--help` shows them. */
  usage: string;
  summary: string;
  run: CliCommand;
  /** Whether what it printed reports a failure, for the exit status (1): a run may end without an error and still fail. */
  failed?: (output: unknown) => boolean;
}

export const commands: Record<string, CliCommandSpec> = {
  'users:create': {
    usage: '--email <email> [--tool-limit <n>]',
    summary: 'create a user; prints its token and webhook secret once',
    run: async (app, args) => {
      const { email, 'tool-limit': toolLimit } = options(args, { email: { type: 'string' }, 'tool-limit': { type: 'string' } });
      if (!email) throw new CliUsageError('--email is required');
      return app.get(CommandBus).execute(new RegisterUser(email, positiveInt(toolLimit, '--tool-limit')));
    },
  },
  'members:add': {
    usage: '--organisation <id> --email <email> --role <owner|admin|editor|viewer>',
    summary: 'add a member to an organisation; prints its token once',
    run: async (app, args) => {
      const { organisation, email, role } = options(args, { organisation: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' } });
      const organisationId = positiveInt(organisation, '--organisation');
      if (!organisationId || !email || !role) throw new CliUsageError('--organisation, --email and --role are required');
      if (!(ROLES as readonly string[]).includes(role)) throw new CliUsageError(`--role must be one of ${ROLES.join(', ')}`);
      return app.get(CommandBus).execute(new RegisterUser(email, undefined, { organisationId, role: role as Role, by: null }));
    },
  },
  'tokens:create': {
    usage: '--user <id>',
    summary: 'issue another token for a user',
    run: async (app, args) => {
      const { user } = options(args, { user: { type: 'string' } });
      const userId = positiveInt(user, '--user');
      if (!userId) throw new CliUsageError('--user is required');
      return app.get(CommandBus).execute(new IssueAccessToken(userId));
    },
  },
  'tokens:revoke': {
    usage: '--token <token>',
    summary: 'revoke a token from the next request on',
    run: async (app, args) => {
      const { token } = options(args, { token: { type: 'string' } });
      if (!token) throw new CliUsageError('--token is required');
      return app.get(CommandBus).execute(new RevokeAccessToken(token));
    },
  },
  'users:quiet-hours': {
    usage: '--user <id> (--unrestricted | --start <HH:MM> --end <HH:MM>)',
    summary: "set the quiet hours of a user's organisation beyond the 08:00-21:00 floor, or lift them",
    run: async (app, args) => {
      const unrestricted = args.includes('--unrestricted');
      const { user, start, end } = options(
        args.filter((a) => a !== '--unrestricted'),
        { user: { type: 'string' }, start: { type: 'string' }, end: { type: 'string' } },
      );
      const userId = positiveInt(user, '--user');
      if (!userId) throw new CliUsageError('--user is required');
      const hhmm = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;
      if (unrestricted === (start !== undefined || end !== undefined)) throw new CliUsageError('give either --unrestricted or --start and --end');
      if (!unrestricted && !(hhmm.test(start ?? '') && hhmm.test(end ?? ''))) throw new CliUsageError('--start and --end must both be HH:MM');
      // Quiet hours hold for the user's whole organisation (docs/teams.md), kept under its id.
      const organisation = (await app.get(UsersQueries).get(userId))?.organisation_id ?? userId;
      await app.get(CommandBus).execute(new SetQuietHours(organisation, unrestricted ? null : { start: start!, end: end! }, 'operator'));
      return { user_id: userId, quiet_hours: await app.get(UsersQueries).quietHours(organisation) };
    },
  },
  'campaigns:history': {
    usage: '<id> [--as-of <ISO 8601>]',
    summary: "print a campaign's audit trail (and its state at an instant)",
    run: async (app, args) => {
      const { values, positionals } = parse(args, { 'as-of': { type: 'string' } }, true);
      const id = positiveInt(positionals[0], '<id>');
      if (!id || positionals.length !== 1) throw new CliUsageError('campaigns:history takes one campaign id');
      const asOf = values['as-of'];
      if (asOf !== undefined && Number.isNaN(Date.parse(asOf))) throw new CliUsageError('--as-of must be an ISO 8601 instant');
      return campaignTrail(app, id, asOf === undefined ? undefined : new Date(asOf));
    },
  },
  'leads:import': {
    usage: '--campaign <id> --user <id> [--allow-duplicates] [--charset <name>] <file.csv|file.ndjson>',
    summary: 'import a CSV or NDJSON file of leads into a campaign; prints the import summary',
    run: async (app, args) => {
      const allowDuplicates = args.includes('--allow-duplicates');
      const { values, positionals } = parse(
        args.filter((a) => a !== '--allow-duplicates'),
        { campaign: { type: 'string' }, user: { type: 'string' }, charset: { type: 'string' } },
        true,
      );
      const campaign = positiveInt(values.campaign, '--campaign');
      const user = positiveInt(values.user, '--user');
      if (!campaign || !user) throw new CliUsageError('--campaign and --user are required');
      if (positionals.length !== 1) throw new CliUsageError('leads:import takes one file');
      // The leads are the organisation's the user belongs to (docs/teams.md).
      const organisation = (await app.get(UsersQueries).get(user))?.organisation_id ?? user;
      return importLeads(app, {
        organisationId: organisation,
        campaignId: campaign,
        file: positionals[0],
        allowDuplicate: allowDuplicates,
        charset: values.charset,
      });
    },
    failed: (summary) => (summary as { status?: string }).status === 'failed',
  },
  'projections:rebuild': {
    usage: '[--projection <name>]',
    summary: 'rebuild read models from the event store (embedded: refused while a service runs on it)',
    run: async (app, args) => {
      const { projection } = options(args, { projection: { type: 'string' } });
      return rebuildProjections(app, projection);
    },
  },
  'keys:rotate': {
    usage: '',
    summary: 'wrap every data key again under the first key of DATA_KEYS (docs/privacy.md)',
    run: async (app, args) => {
      options(args, {});
      const rewrapped = await app.get(Sealer).rotate();
      return { rewrapped, master_key: app.get(AppConfig).dataKeys[0]?.id ?? 'the key file' };
    },
  },
};

/** The usage of every command, or of one. */
export function usage(name?: string): string {
  const lines = Object.entries(commands)
    .filter(([n]) => name === undefined || n === name)
    // A usage too long for the column puts its summary on a line of its own, under the column.
    .map(([n, c]) => {
      const call = c.usage ? `${n} ${c.usage}` : n;
      return call.length < 48 ? `  ${call.padEnd(50)}${c.summary}` : `  ${call}\n  ${' '.repeat(50)}${c.summary}`;
    });
  return `Usage: npm run cli -- <command> [options]   (--help after a command shows its own)\n\n${lines.join('\n')}\n`;
}
