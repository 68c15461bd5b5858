import { parseArgs } from 'node:util';
import { DataDirectoryInUseError } from '@cartwright/repository';
import { EnvironmentError } from '@cartwright/service';
import {
  backfill,
  type CommandOutput,
  migrate,
  readCliEnvironment,
  shopCreate,
  start,
  tokenCreate,
  tokenRevoke,
  UsageError,
} from './commands.ts';

const USAGE = `Usage: cartwright <command>

  start                                   run the service for PROCESS_ROLE (default all)
  migrate                                 apply database migrations
  shop create --name N [--owner-email E]  create a shop; prints {"tenantId","token"}
  token create --shop ID --name N (--role R | --user USER_ID) [--expires ISO]
                                          create an API token (role) or personal token (member)
  token revoke --shop ID --token TOKEN_ID revoke a token
  starters backfill                       add missing starter definitions to existing shops

Storage: embedded PGlite in CARTWRIGHT_DATA_DIR (default .data), or PostgreSQL with DATABASE_URL.`;

const out: CommandOutput = {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
};

function required(values: Record<string, string | boolean | undefined>, name: string): string {
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
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals.join(' ');
  if (values.help || command === '' || command === 'help') {
    out.stdout(USAGE);
    return;
  }
  const env = readCliEnvironment(process.env);
  switch (command) {
    case 'start':
      return start(env, out, process);
    case 'migrate':
      return migrate(env, out);
    case 'shop create':
      return shopCreate(env, out, { name: required(values, 'name'), ownerEmail: values['owner-email'] });
    case 'token create':
      return tokenCreate(env, out, {
        shop: required(values, 'shop'),
        name: required(values, 'name'),
        role: values.role,
        userId: values.user,
        expiresAt: values.expires,
      });
    case 'token revoke':
      return tokenRevoke(env, out, { shop: required(values, 'shop'), tokenId: required(values, 'token') });
    case 'starters backfill':
      return backfill(env, out);
    default:
      throw new UsageError(`unknown command "${command}"\n\n${USAGE}`);
  }
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  if (
    error instanceof UsageError ||
    error instanceof EnvironmentError ||
    error instanceof DataDirectoryInUseError ||
    (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))
  ) {
    process.stderr.write(`cartwright: ${error.message}\n`);
    process.exit(error instanceof DataDirectoryInUseError ? 3 : 2);
  }
  throw error;
}
