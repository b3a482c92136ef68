// The URLs of the private area's documents (shared/documents.ts): the pages link them with
// documentHref, the server mounts the same paths (each PDF and the user's data in every locale
// form, a project's file in one).
import { expect, test } from 'vitest';
import type { Locale } from '../shared/locales.ts';
import { PDF_PATHS, PROJECT_PDF_PATHS } from '../server/pdf/routes.ts';
import { DOWNLOAD_PATH } from '../server/projects/download.ts';
import { DOCUMENT_PATHS, documentHref, type DocumentName } from '../shared/documents.ts';

type Case = { name: DocumentName; locale: Locale; params: Record<string, number>; href: string };

test.each<Case>([
  { name: 'profile', locale: 'es', params: {}, href: '/documents/my-profile.pdf' },
  { name: 'profile', locale: 'en', params: {}, href: '/en/documents/my-profile.pdf' },
  { name: 'users', locale: 'es', params: {}, href: '/documents/users.pdf' },
  { name: 'messages', locale: 'en', params: {}, href: '/en/documents/contact-messages.pdf' },
  { name: 'myData', locale: 'es', params: {}, href: '/documents/my-data.json' },
  { name: 'myData', locale: 'en', params: {}, href: '/en/documents/my-data.json' },
  { name: 'report', locale: 'es', params: { id: 7 }, href: '/documents/projects/7/report.pdf' },
  { name: 'proposal', locale: 'en', params: { id: 7 }, href: '/en/documents/projects/7/proposal.pdf' },
  // A project's file has no language: one URL whatever the page's locale.
  { name: 'projectFile', locale: 'es', params: { id: 7, docId: 12 }, href: '/project-files/7/12' },
  { name: 'projectFile', locale: 'en', params: { id: 7, docId: 12 }, href: '/project-files/7/12' },
])('documentHref($name, $locale) is $href', ({ name, locale, params, href }) => {
  expect(documentHref(name, locale, params)).toBe(href);
});

test('a parameter is percent-encoded, and a missing one throws rather than link nowhere', () => {
  expect(documentHref('report', 'es', { id: 'a/b' })).toBe('/documents/projects/a%2Fb/report.pdf');
  expect(() => documentHref('report', 'es')).toThrow(/id/);
});

test('the server mounts the paths the pages link: the PDFs and a project’s file', () => {
  expect(Object.values(PDF_PATHS).every((path) => Object.values(DOCUMENT_PATHS).includes(path))).toBe(true);
  expect(Object.values(PROJECT_PDF_PATHS).every((path) => Object.values(DOCUMENT_PATHS).includes(path))).toBe(true);
  expect(DOWNLOAD_PATH).toBe(DOCUMENT_PATHS.projectFile);
});
