// `npm run seed:demo`: one demo user per role and a project in every state, for trying the
// private area locally. Never run automatically. Prints the credentials; skips users that
// already exist. With NODE_ENV=production only given `--yes`.
import { createUser, findUser } from '../server/users/users.ts';
import { databaseFile, openDatabase } from '../server/db/index.ts';
import type { Role } from '../shared/user.ts';
import { seedDemoProjects } from '../server/projects/demo.ts';

const DEMO: { userName: string; role: Role; name: string; lastName: string }[] = [
  { userName: 'demo-admin', role: 'ADMIN', name: 'Ana', lastName: 'Admin' },
  { userName: 'demo-client', role: 'CLI', name: 'Carlos', lastName: 'Cliente' },
  { userName: 'demo-org', role: 'ORG', name: 'Olga', lastName: 'Organización' },
  { userName: 'demo-expert', role: 'CONS', name: 'Elena', lastName: 'Experta' },
];
const PASSWORD = 'demo-password-2026';

// Demo accounts have a published password: never in a production database by accident.
// `--yes` says it is on purpose (a staging copy, a demo machine that runs NODE_ENV=production).
if (process.env.NODE_ENV === 'production' && !process.argv.slice(2).includes('--yes')) {
  console.error(`seed:demo refuses NODE_ENV=production: it creates an ADMIN and three other users whose password
(${PASSWORD}) is printed here and written in the docs. For a demo or staging site that runs in
production mode, point DATA_DIR (or DATABASE_URL) at its data and say it is on purpose:
  NODE_ENV=production DATA_DIR=/var/lib/site npm run seed:demo -- --yes
Afterwards, disable each demo user: npm run user -- disable --userName demo-admin (and the others).`);
  process.exit(1);
}
// DATABASE_URL (PostgreSQL) when set, else the SQLite database of DATA_DIR: the site's own.
const db = await openDatabase({
  url: process.env.DATABASE_URL || undefined,
  file: databaseFile(process.env.DATA_DIR || './data'),
  poolMax: 1,
});
for (const user of DEMO) {
  if (await findUser(db, user.userName)) {
    console.log(`${user.userName} exists, skipped`);
    continue;
  }
  await createUser(db, { ...user, password: PASSWORD, email: `${user.userName}@example.com` });
  console.log(`${user.userName} (${user.role}) password: ${PASSWORD}`);
}
// A project in every state, with milestones, messages and a document (skipped when there are projects).
const made = await seedDemoProjects(db, { admin: 'demo-admin', client: 'demo-client', org: 'demo-org', expert: 'demo-expert' });
console.log(made ? `${made} demo projects created` : 'projects exist, none created');
await db.close();
