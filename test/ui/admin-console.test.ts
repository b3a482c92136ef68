// The admin console as pages (docs/decisions/039), read from the app's server-rendered HTML
// (docs/decisions/047): every page shows the sub-navigation with exactly one link marked
// aria-current="page" (its own), in both locales; the admin's own row of the users page has no
// menu. What needs a browser (following the links without a reload, no sideways scroll at
// 390 px, the row menu's keyboard, axe-core) stays in test/e2e/admin-console.test.ts.
import { within } from '@testing-library/dom';
import { expect, test } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import { plainBrowser, textOf } from '../helpers/plain-browser.ts';
import { addUser, DEFAULT_PASSWORD } from '../helpers/users.ts';

/** The console's pages in the order of the sub-navigation, with their link's name in each locale. */
const PAGES = [
  { path: '/admin', en: 'Overview', es: 'Resumen' },
  { path: '/admin/projects', en: 'Projects', es: 'Proyectos' },
  { path: '/admin/users', en: 'Users', es: 'Usuarios' },
  { path: '/admin/inbox', en: 'Contact inbox', es: 'Buzón de contacto' },
  { path: '/admin/audit', en: 'Audit log', es: 'Registro de actividad' },
  { path: '/admin/deletions', en: 'Account deletion', es: 'Eliminación de cuentas' },
  { path: '/admin/branding', en: 'Branding', es: 'Imagen de marca' },
] as const;
const LOCALES = [
  { locale: 'es', prefix: '', nav: 'Secciones de la administración' },
  { locale: 'en', prefix: '/en', nav: 'Sections of the administration' },
] as const;

/** A browser signed in as the admin `ada`, on an app that also has a client, `carla`. */
async function signedInAdmin() {
  const { app, db } = await createTestApp();
  await addUser(db, { userName: 'ada', role: 'ADMIN', name: 'Ada', lastName: 'Lovelace' });
  await addUser(db, { userName: 'carla', role: 'CLI', name: 'Carla', lastName: 'Cliente' });
  const browser = plainBrowser(app);
  await browser.signIn('ada', DEFAULT_PASSWORD);
  return browser;
}

test.each(LOCALES)('$locale: each console page marks itself, and only itself, as the current page', async ({ locale, prefix, nav }) => {
  const browser = await signedInAdmin();
  for (const entry of PAGES) {
    const path = `${prefix}${entry.path}`;
    const page = await browser.open(path);
    expect(page.status, path).toBe(200);
    expect(page.url.pathname, path).toBe(path);
    const navigation = within(page.document.body).getByRole('navigation', { name: nav });
    expect(within(navigation).getAllByRole('link').map(textOf), path).toEqual(PAGES.map((p) => p[locale]));
    const current = [...navigation.querySelectorAll('[aria-current="page"]')].map((el) => ({
      text: textOf(el),
      href: el.getAttribute('href'),
    }));
    expect(current, path).toEqual([{ text: entry[locale], href: path }]);
  }
});

test("a row of the users page: the admin's own row has no menu, a link to their profile instead", async () => {
  const page = await (await signedInAdmin()).open('/en/admin/users');
  const rows = within(within(page.document.body).getByRole('region', { name: 'Users' })).getAllByRole('row');
  // Its header says whose it is: "ada (you)".
  const own = rows.filter((row) => /^ada\b/.test(textOf(row.querySelector('th[scope="row"]'))));
  expect(own).toHaveLength(1);
  expect(own[0]!.querySelectorAll('details.row-menu')).toHaveLength(0);
  expect(own[0]!.querySelectorAll('button, select')).toHaveLength(0);
  expect(within(own[0]!).getByRole('link').getAttribute('href')).toBe('/en/profile');
  // …while another user's row has its menu.
  const carla = rows.find((row) => textOf(row.querySelector('th[scope="row"]')) === 'carla');
  expect(carla?.querySelectorAll('details.row-menu')).toHaveLength(1);
});

/** The console's home as `ada` sees it, in one locale, on an app whose e-mail clock reads `now`. */
async function homeLines(site: Awaited<ReturnType<typeof createTestApp>>, prefix: string) {
  await addUser(site.db, { userName: 'ada', role: 'ADMIN', name: 'Ada', lastName: 'Lovelace' });
  const browser = plainBrowser(site.app);
  await browser.signIn('ada', DEFAULT_PASSWORD);
  const page = await browser.open(`${prefix}/admin`);
  return [...page.document.querySelectorAll('[role="status"].notice')].map(textOf);
}

const NOW = Date.parse('2026-12-02T10:00:00Z');
const minutesAgo = (minutes: number) => NOW - minutes * 60_000;

/** An outbox row queued `queued` minutes before NOW, due at `due` (minutes before NOW; negative: later), tried `attempts` times. */
function outboxRow(queued: number, due: number, attempts: number) {
  return {
    kind: 'project_notice',
    recipient: 'ana@example.com',
    reply_to: null,
    locale: 'es',
    subject: 's',
    text: 't',
    html: '<p>t</p>',
    status: 'pending',
    attempts,
    last_error: attempts > 0 ? 'connect ECONNREFUSED' : null,
    next_attempt_at: minutesAgo(due),
    claimed_at: null,
    ref: null,
    created_at: new Date(minutesAgo(queued)).toISOString(),
    sent_at: null,
    priority: 1,
  };
}

test.each([
  {
    locale: 'en',
    prefix: '/en',
    lines: [
      "The last run of the daily e-mail digest failed: the server's log says why.",
      '2 e-mails are waiting to go out, the oldest for 40 minutes: check the mail server (npm run mail:test).',
    ],
  },
  {
    locale: 'es',
    prefix: '',
    lines: [
      'Ha fallado la última ejecución de la tarea «resumen diario por correo»: el registro del servidor dice por qué.',
      '2 correos esperan a salir, el más antiguo desde hace 40 minutos: revisa el servidor de correo (npm run mail:test).',
    ],
  },
])(
  "$locale: the home says when a job's last run failed and when e-mail has waited over 15 minutes (a held notice not yet due does not count)",
  async ({ prefix, lines }) => {
    const site = await createTestApp({}, { mail: { now: () => NOW } });
    const job = (kind: string, id: number, status: string, lastError: string | null) => ({
      id,
      key: `${kind}:2026-12-0${id}`,
      kind,
      status,
      run_at: minutesAgo(60),
      attempts: 1,
      claimed_at: null,
      last_error: lastError,
      created_at: new Date(minutesAgo(60)).toISOString(),
      done_at: null,
    });
    await site.db.k
      .insertInto('jobs')
      // The digest's latest run was given up; the reminders failed once before, then did their latest run well.
      .values([job('digest', 2, 'failed', 'boom'), job('reminders', 1, 'failed', 'boom'), job('reminders', 3, 'done', null)])
      .execute();
    await site.db.k
      .insertInto('mail_outbox')
      .values([
        outboxRow(40, 39, 3), // tried three times: stuck for 40 minutes
        outboxRow(20, 20, 0), // due 20 minutes ago, never sent: stuck
        outboxRow(30, -5, 0), // held until 5 minutes from now: not stuck
        outboxRow(5, 5, 1), // 5 minutes: a passing refusal
      ])
      .execute();
    expect(await homeLines(site, prefix)).toEqual(lines);
  },
);

test('the home shows no warning when the jobs ran well and no e-mail has waited 15 minutes', async () => {
  const site = await createTestApp({}, { mail: { now: () => NOW } });
  await site.db.k
    .insertInto('mail_outbox')
    .values([outboxRow(14, 14, 2)])
    .execute();
  expect(await homeLines(site, '/en')).toEqual([]);
});
