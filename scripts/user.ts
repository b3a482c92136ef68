// Ops' command line for users of the embedded database (DATA_DIR, default ./data). Every change
// is recorded in the audit log with 'ops' as the actor:
//   npm run user -- add --userName ana --password '…' --role ADMIN --name Ana --lastName Ruiz [--email ana@example.com]
//   npm run user -- set-role --userName ana --role CLI
//   npm run user -- set-password --userName ana --password '…'
//   npm run user -- disable --userName ana        (enable: --enable)
//   npm run user -- list [--q text]
//   npm run user -- reset-2fa --userName ana   (two-factor authentication off: phone and recovery codes lost)
import { parseArgs } from 'node:util';
import { createAuditLog } from '../server/audit/log.ts';
import type { AuditEntry } from '../server/audit/types.ts';
import { createLogger } from '../server/base/logger.ts';
import { createUser, findUser, listUsers, setDisabled, setPassword, setRole } from '../server/users/users.ts';
import { endSessionsOf } from '../server/auth/session-store.ts';
import { resetTwoFactor } from '../server/two-factor/service.ts';
import { databaseFile, openDatabase } from '../server/db/index.ts';
import { ApiError } from '../server/http/errors.ts';
import { isRole, ROLES } from '../shared/user.ts';
import { singleLine } from '../shared/validation.ts';

const USAGE = `Usage: npm run user -- <command> [options]

Commands:
  add           --userName U --password P --role ${ROLES.join('|')} --name N --lastName L [--email E]
  set-role      --userName U --role ${ROLES.join('|')}
  set-password  --userName U --password P
  disable       --userName U [--enable]
  list          [--q TEXT]
  reset-2fa     --userName U     (turns two-factor authentication off)

The database is DATA_DIR/site.db (DATA_DIR defaults to ./data).`;

class UsageError extends Error {}

/** Who the audit log names for what this command line does. */
export const OPS_ACTOR = 'ops';

function required(values: Record<string, string | boolean | undefined>, ...names: string[]): Record<string, string> {
  const missing = names.filter((n) => typeof values[n] !== 'string' || values[n] === '');
  if (missing.length) throw new UsageError(`Missing ${missing.map((n) => `--${n}`).join(', ')}`);
  return Object.fromEntries(names.map((n) => [n, String(values[n])]));
}

export async function run(argv: string[], dataDir: string, out: (line: string) => void): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    out(USAGE);
    return;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      userName: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string' },
      name: { type: 'string' },
      lastName: { type: 'string' },
      email: { type: 'string' },
      q: { type: 'string' },
      enable: { type: 'boolean' },
    },
    strict: true,
  });
  const role = values.role;
  if (role !== undefined && !isRole(role)) throw new UsageError(`Unknown role ${JSON.stringify(role)}: use one of ${ROLES.join(', ')}`);
  // DATABASE_URL (PostgreSQL) when set, else the SQLite database of DATA_DIR: the site's own.
  const db = await openDatabase({ url: process.env.DATABASE_URL || undefined, file: databaseFile(dataDir), poolMax: 1 });
  // A failure to record is written to stderr; the change itself stands.
  const audit = createAuditLog({ db, logger: createLogger('error', process.stderr) });
  // What the command line does is done by 'ops', from no address.
  const record = (entry: Omit<AuditEntry, 'actor' | 'ip'>) => audit.record({ ...entry, actor: OPS_ACTOR, ip: null });
  try {
    switch (command) {
      case 'add': {
        const v = required(values, 'userName', 'password', 'role', 'name', 'lastName');
        const user = await createUser(db, {
          userName: v.userName!,
          password: v.password!,
          role: role!,
          // One plain line each, as every other door takes a name (shared/validation.ts).
          name: singleLine(v.name!).trim(),
          lastName: singleLine(v.lastName!).trim(),
          email: values.email ?? null,
        });
        await record({ action: 'user_created', target: user.userName, detail: { role: user.role } });
        out(`Created ${user.userName} (${user.role})`);
        return;
      }
      case 'set-role': {
        const v = required(values, 'userName', 'role');
        const before = await findUser(db, v.userName!);
        const user = await setRole(db, v.userName!, v.role!);
        if (before && before.role !== user.role)
          await record({ action: 'role_changed', target: user.userName, detail: { from: before.role, to: user.role } });
        out(`${user.userName} is now ${v.role}`);
        return;
      }
      case 'set-password': {
        const v = required(values, 'userName', 'password');
        const user = await setPassword(db, v.userName!, v.password!);
        // Sessions signed in with the old password end (every instance sees it within a second).
        const sessionsEnded = await endSessionsOf(db, user.userName);
        await record({ action: 'password_set', target: user.userName, detail: { generated: false, sessionsEnded } });
        out(`Password of ${user.userName} changed`);
        return;
      }
      case 'disable': {
        const v = required(values, 'userName');
        const before = await findUser(db, v.userName!);
        const user = await setDisabled(db, v.userName!, !values.enable);
        const sessionsEnded = user.disabled ? await endSessionsOf(db, user.userName) : 0;
        if (before && before.disabled !== user.disabled)
          await record({
            action: 'status_changed',
            target: user.userName,
            detail: user.disabled ? { status: 'disabled', sessionsEnded } : { status: 'enabled' },
          });
        out(`${user.userName} is ${user.disabled ? 'disabled' : 'enabled'}`);
        return;
      }
      case 'list': {
        let page = 1;
        for (;;) {
          const result = await listUsers(db, { q: values.q, page, pageSize: 100 });
          for (const u of result.items)
            out(
              [
                u.userName,
                u.role,
                `${u.name} ${u.lastName}`,
                u.email ?? '-',
                u.disabled ? 'disabled' : u.invited ? 'invited' : 'active',
              ].join('\t'),
            );
          if (page * result.pageSize >= result.total) break;
          page++;
        }
        return;
      }
      case 'reset-2fa': {
        const v = required(values, 'userName');
        // For someone who lost both the phone and the recovery codes: they sign in with the
        // password alone and may set 2FA up again. Whoever runs this should know who asked.
        const wasOn = await resetTwoFactor(db, v.userName!);
        out(wasOn ? `Two-factor authentication of ${v.userName} is off` : `${v.userName} had no two-factor authentication`);
        return;
      }
      default:
        throw new UsageError(`Unknown command ${JSON.stringify(command)}`);
    }
  } finally {
    await db.close();
  }
}

if (import.meta.filename === process.argv[1]) {
  run(process.argv.slice(2), process.env.DATA_DIR || './data', (line) => console.log(line)).catch((error: unknown) => {
    if (error instanceof UsageError || (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      console.error(`${(error as Error).message}\n\n${USAGE}`);
    } else if (error instanceof ApiError) {
      console.error(error.message);
    } else {
      console.error(error instanceof Error ? error.message : error);
    }
    process.exit(1);
  });
}
