// Where the server's words live (i18next translates every text): locales/<lng>/<ns>.json,
// loaded once at start by i18next-fs-backend and checked then; the browser gets only the pages'.
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, onTestFinished, test } from 'vitest';
import { createI18n, NAMESPACES, projectI18n, resourcesOf } from '../server/i18n/index.ts';
import { loadBrand } from '../server/brand/brand.ts';
import { projectMail } from '../server/mail/templates.ts';
import { pdfRenderer } from '../server/pdf/renderer.ts';
import { PDF_NAMESPACES, roleName, stateName } from '../server/pdf/i18n.ts';
import { PATHS } from '../server/base/paths.ts';
import { readManifest } from '../server/render/manifest.ts';
import { LOCALE_CODES } from '../shared/locales.ts';
import { pdfText } from './pdf/pdf-text.ts';

/** A copy of locales/ to break. */
function localesCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'locales-'));
  cpSync(PATHS.locales, dir, { recursive: true });
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function editJson(file: string, edit: (messages: Record<string, unknown>) => void) {
  const messages = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  edit(messages);
  writeFileSync(file, JSON.stringify(messages));
}

test('the server loads every namespace of every language at start: the pages’, the e-mails’, the PDFs’, the offline page’s', () => {
  expect(NAMESPACES).toEqual(['common', 'mail', 'pdf', 'offline']);
  const i18n = projectI18n();
  for (const lng of LOCALE_CODES) for (const ns of NAMESPACES) expect(i18n.hasResourceBundle(lng, ns), `${lng}/${ns}`).toBe(true);
  // One instance, kept: a second call reads no file.
  expect(projectI18n()).toBe(i18n);
});

test('a missing namespace file stops the start, naming the file', () => {
  const dir = localesCopy();
  unlinkSync(join(dir, 'en', 'pdf.json'));
  expect(() => createI18n(dir)).toThrow(`Messages missing: ${join(dir, 'en', 'pdf.json')} could not be loaded`);
});

test('a file that is not JSON stops the start, naming the file and why', () => {
  const dir = localesCopy();
  writeFileSync(join(dir, 'es', 'offline.json'), '{ "title": "Sin conexión", }');
  expect(() => createI18n(dir)).toThrow(new RegExp(`${join(dir, 'es', 'offline.json')} could not be loaded \\(.+\\)`));
});

test('a key one language lacks stops the start, naming the file and the key', () => {
  const dir = localesCopy();
  editJson(join(dir, 'es', 'mail.json'), (mail) => {
    delete (mail.notices as Record<string, Record<string, string>>).brief_submitted!.action;
  });
  expect(() => createI18n(dir)).toThrow(
    `Messages missing in ${join(dir, 'es', 'mail.json')}: notices.brief_submitted.action (present in en/mail.json)`,
  );
});

test('a key of the pages’ namespace is checked the same way', () => {
  const dir = localesCopy();
  editJson(join(dir, 'en', 'common.json'), (common) => {
    delete (common.roles as Record<string, string>).ORG;
  });
  expect(() => createI18n(dir)).toThrow(`Messages missing in ${join(dir, 'en', 'common.json')}: roles.ORG (present in es/common.json)`);
});

test('languages may have different plural forms of a key (Spanish has "many")', () => {
  const dir = localesCopy();
  editJson(join(dir, 'es', 'pdf.json'), (pdf) => {
    pdf.userCount_many = '{{count, grouped}} de usuarios';
  });
  expect(createI18n(dir).getFixedT('es', 'pdf')('userCount', { count: 1_000_000 })).toBe('1.000.000 de usuarios');
});

test('a value is never read as a message: braces and $t() typed by a user stay as they were typed', () => {
  const title = '{{actor}} $t(common:roles.ADMIN) {{site}}';
  const mail = projectMail(
    {
      kind: 'brief_submitted',
      locale: 'es',
      site: { name: 'Acme', brand: loadBrand() },
      recipient: { name: '{{title}}', role: 'ADMIN' },
      title,
      actor: 'Ana',
      url: 'https://www.example.test/admin',
    },
    projectI18n(),
  );
  expect(mail.subject).toBe(`Nuevo encargo: «${title}»`);
  expect(mail.text).toContain('Hola, {{title}}:');
  expect(mail.text).toContain('tu cuenta de Acme tiene el rol Administrador/a.');
});

test.each(['AUDITOR', 'constructor', '__proto__', 'toString', 'roles', 'ADMIN.x', ''])(
  'a role or state the site does not know (%j) is shown as it is, never looked up as a key path',
  (code) => {
    expect(roleName(code, 'en')).toBe(code);
    expect(stateName(code, 'es')).toBe(code);
  },
);

test('the browser receives only the pages’ namespace: the build’s message files are common.json', () => {
  const manifest = readManifest(PATHS.manifest);
  for (const lng of LOCALE_CODES) {
    const shipped: unknown = JSON.parse(readFileSync(join(PATHS.clientBuild, manifest.messages[lng]!.replace(/^\//, '')), 'utf8'));
    expect(shipped).toEqual(JSON.parse(readFileSync(join(PATHS.locales, lng, 'common.json'), 'utf8')));
  }
});

test('the built layout thread (dist/server/pdf-worker.js) lays documents out with the words the server hands it', async () => {
  const resources = resourcesOf(projectI18n(), PDF_NAMESPACES);
  // What the thread is given is what it says: a changed word shows that it read no file of its own.
  const es = resources.es as { pdf: { fields: Record<string, string> } };
  const changed = { ...resources, es: { ...resources.es, pdf: { ...es.pdf, fields: { ...es.pdf.fields, userName: 'Usuario/a' } } } };
  const pdfs = pdfRenderer({ workerUrl: new URL(`file://${join(PATHS.root, 'dist', 'server', 'pdf-worker.js')}`), resources: changed });
  onTestFinished(() => pdfs.close());
  const ctx = { siteName: 'Acme', brandColor: '#30B7BB', defaultColor: '#30B7BB', generatedAt: new Date('2026-11-22T09:05:00Z') };
  const user = { userName: 'ana', name: 'Ana', lastName: 'Ruiz', role: 'ADMIN' };
  const text = pdfText(await pdfs.render({ kind: 'profile', user, ctx: { ...ctx, locale: 'es' } }));
  expect(text).toContain('Usuario/aana');
  expect(text).toContain('RolAdministrador/a');
  expect(text).toContain('Página 1 de 1');
  expect(pdfText(await pdfs.render({ kind: 'profile', user, ctx: { ...ctx, locale: 'en' } }))).toContain('User nameana');
});
