// Words and formats a reader compares between the screen and the PDFs: one role name, dates and
// numbers in each locale's own style (its ISO code from shared/locales.ts), no "the the".
import { expect, test } from 'vitest';
import { formatDate } from '../client/components/formatted-date.tsx';
import enMessages from '../locales/en/common.json' with { type: 'json' };
import esMessages from '../locales/es/common.json' with { type: 'json' };
import { formatDateTime, formatNumber, INTL_LOCALE, pdfT, roleName } from '../server/pdf/i18n.ts';
import { LOCALES } from '../shared/locales.ts';
import { ROLES } from '../shared/user.ts';

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
