import { parseArgs } from 'node:util';
import type { CommandOutput } from './commands.ts';

// Only node's own modules load up front: the commands (the service, the hosts) take seconds to
// load, so `start` says it is starting before it loads them.

const USAGE = `Usage: cartwright <command>

  start                                   run the service for PROCESS_ROLE (default all)
  migrate                                 apply database migrations
  shop create --name N [--owner-email E]  create a shop; prints {"tenantId","token"}
  shop list                               list the shops, one JSON line each
  token create --shop ID --name N (--role R | --user USER_ID) [--expires ISO]
                                          create an API token (role) or personal token (member);
                                          a lost owner token: token create --shop ID --name N --role owner
  token list --shop ID                    list a shop's tokens (never their secrets), one JSON line each
  token revoke --shop ID --token TOKEN_ID revoke a token
  user password --email E                 set a member's admin UI password, read from stdin
                                          (at least 12 characters; never on the command line)
  starters backfill                       add missing starter definitions to existing shops

Storage: embedded PGlite in CARTWRIGHT_DATA_DIR (default .data), or PostgreSQL with DATABASE_URL.`;

const out: CommandOutput = {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
};

type Commands = typeof import('./commands.ts');

function required(
  { UsageError }: Commands,
  values: Record<string, string | boolean | undefined>,
  name: string,
): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      'owner-email': { type: 'string' },
      shop: { type: 'string' },
      role: { type: 'string' },
      user: { type: 'string' },
      token: { type: 'string' },
      expires: { type: 'string' },
      email: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals.join(' ');
  if (values.help || command === '' || command === 'help') {
    out.stdout(USAGE);
    return;
  }
  if (command === 'start') out.stderr('starting Cartwright…');
  const cli = await import('./commands.ts');
  const env = cli.readCliEnvironment(process.env);
  const option = (name: string) => required(cli, values, name);
  switch (command) {
    case 'start':
      return cli.start(env, out, process);
    case 'migrate':
      return cli.migrate(env, out);
    case 'shop create':
      return cli.shopCreate(env, out, { name: option('name'), ownerEmail: values['owner-email'] });
    case 'shop list':
      return cli.shopList(env, out);
    case 'token list':
      return cli.tokenList(env, out, { shop: option('shop') });
    case 'token create':
      return cli.tokenCreate(env, out, {
        shop: option('shop'),
        name: option('name'),
        role: values.role,
        userId: values.user,
        expiresAt: values.expires,
      });
    case 'token revoke':
      return cli.tokenRevoke(env, out, { shop: option('shop'), tokenId: option('token') });
    case 'user password':
      return cli.userPassword(env, out, { email: option('email'), input: process.stdin });
    case 'starters backfill':
      return cli.backfill(env, out);
    default:
      throw new cli.UsageError(`unknown command "${command}"\n\n${USAGE}`);
  }
}

/** The exit code of an expected failure (usage, environment, storage in use), else null. */
async function exitCodeOf(error: unknown): Promise<number | null> {
  if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))
    return 2;
  const [{ UsageError }, { EnvironmentError }, { DataDirectoryInUseError }] = await Promise.all([
    import('./commands.ts'),
    import('@cartwright/service'),
    import('@cartwright/repository'),
  ]);
  if (error instanceof DataDirectoryInUseError) return 3;
  return error instanceof UsageError || error instanceof EnvironmentError ? 2 : null;
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  const code = await exitCodeOf(error);
  if (code === null) throw error;
  process.stderr.write(`cartwright: ${(error as Error).message}\n`);
  process.exit(code);
}
