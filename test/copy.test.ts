// Words and formats a reader compares between the screen and the PDFs: one role name, dates and
// numbers in each locale's own style (its ISO code from shared/locales.ts), no "the the".
import { expect, test } from 'vitest';
import { formatDate } from '../client/components/formatted-date.tsx';
import enMessages from '../locales/en/common.json' with { type: 'json' };
import esMessages from '../locales/es/common.json' with { type: 'json' };
import { formatDateTime, formatNumber, INTL_LOCALE, pdfT, roleName } from '../server/pdf/i18n.ts';
import { LOCALES } from '../shared/locales.ts';
import { ROLES } from '../shared/user.ts';
import { formatBytes } from '../shared/file-size.ts';
import { waitPhrase } from '../shared/wait.ts';
import { projectI18n } from '../server/i18n/index.ts';
import type { Translate } from '../shared/translate.ts';

test('a person with the ADMIN role is "Administrador/a" in Spanish, on the site and in the PDFs alike', () => {
  expect(esMessages.roles.ADMIN).toBe('Administrador/a');
  for (const role of ROLES) {
    expect(roleName(role, 'es'), role).toBe(esMessages.roles[role]);
    expect(roleName(role, 'en'), role).toBe(enMessages.roles[role]);
  }
});

test('the PDFs format dates and numbers with each locale’s ISO code (es-ES, en-US), like the site', () => {
  expect(INTL_LOCALE).toEqual(Object.fromEntries(LOCALES.map((l) => [l.code, l.iso])));
  const day = new Date('2026-11-22T09:05:00Z');
  // The same day reads the same on screen and on paper.
  expect(formatDate('2026-11-22', 'en')).toBe('November 22, 2026');
  expect(formatDateTime(day, 'en')).toMatch(/^November 22, 2026, 10:05\sAM$/);
  expect(formatDate('2026-11-22', 'es')).toBe('22 de noviembre de 2026');
  expect(formatDateTime(day, 'es')).toBe('22 de noviembre de 2026, 10:05');
  expect(formatNumber(1234, 'en')).toBe('1,234');
  expect(formatNumber(1234, 'es')).toBe('1.234');
});

test('a date the site cannot read is shown as it is', () => {
  for (const bad of ['', 'not a date', '2026-13', '2026-00-10']) expect(formatDate(bad, 'en')).toBe(bad);
  // zz is no language's code: no locale can ever have it.
  expect(formatDate('2026-11-22', 'zz')).toBe('2026-11-22');
});

test.each(['the product', 'Acme'])('no PDF subject doubles an article around the site name %s', (siteName) => {
  for (const { code } of LOCALES) {
    const t = pdfT(code);
    for (const key of [
      'profile.subject',
      'users.subject',
      'messages.subject',
      'projects.proposal.subject',
      'projects.report.subject',
    ] as const) {
      expect(t(key, { site: siteName })).not.toMatch(/\bthe the\b/i);
      expect(t(key, { site: siteName })).toContain(siteName);
    }
  }
});

/** The site's translator in a language, with i18next's plurals (as the pages have it). */
function siteT(lng: 'es' | 'en'): Translate {
  const t = projectI18n().getFixedT(lng, 'common');
  return (key, params) => (params ? t(key, params) : t(key));
}

test.each([
  { lng: 'es' as const, seconds: 45, said: '45 segundos' },
  { lng: 'es' as const, seconds: 1, said: '1 segundo' },
  { lng: 'es' as const, seconds: 505, said: '9 minutos' },
  { lng: 'es' as const, seconds: 3600, said: '60 minutos' },
  { lng: 'es' as const, seconds: 7200, said: '2 horas' },
  { lng: 'en' as const, seconds: 89, said: '89 seconds' },
  { lng: 'en' as const, seconds: 90, said: '2 minutes' },
  { lng: 'en' as const, seconds: 60 * 60 * 24, said: '24 hours' },
])(
  'a wait of $seconds s reads "$said" in $lng: seconds under 90, whole minutes rounded up, hours past 90 minutes',
  ({ lng, seconds, said }) => {
    expect(waitPhrase(siteT(lng), seconds)).toBe(said);
  },
);

test('a refusal to try again later says the wait in minutes when it is long ("dentro de 9 minutos", never "505 segundos")', () => {
  const t = siteT('es');
  expect(t('formErrors.too_many_attempts', { wait: waitPhrase(t, 505) })).toBe(
    'Demasiados intentos fallidos. Inténtalo de nuevo dentro de 9 minutos.',
  );
  // No message counts the seconds itself any more.
  for (const messages of [esMessages, enMessages]) expect(JSON.stringify(messages.formErrors)).not.toContain('{{seconds}}');
});

test('Spanish speaks to the reader as "tú" when they choose their password, and a brief is "enviado" by its owner', () => {
  expect(esMessages.invitation.lead).toContain('Elige tu contraseña');
  expect(JSON.stringify(esMessages)).not.toContain('Elige su contraseña');
  expect(esMessages.projects.page.owner).toBe('Enviado por');
});

test('a file size reads the same on screen and in the PDFs: decimal kB and MB in the reader’s number style', () => {
  expect(formatBytes(999, 'es')).toBe('999 B');
  expect(formatBytes(1234, 'es')).toBe('1,2 kB');
  expect(formatBytes(1234, 'en')).toBe('1.2 kB');
  expect(formatBytes(3_400_000, 'es')).toBe('3,4 MB');
});
