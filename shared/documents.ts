// The private area's documents and the one way to link one. Each path is written here once: the
// server mounts it (the PDFs: server/pdf/routes.ts; the user's data: server/account/download.ts; a
// project's uploaded files: server/projects/download.ts) and the pages link it with documentHref.
import { localeHref, type Locale } from './locales.ts';
import { fillParams } from './routes.ts';

/** Every document's path, without a locale prefix; `:id` is a project's, `:docId` an uploaded file's. */
export const DOCUMENT_PATHS = {
  /** The signed-in user's profile (PDF). */
  profile: '/documents/my-profile.pdf',
  /** The admin's reports (PDF). */
  users: '/documents/users.pdf',
  messages: '/documents/contact-messages.pdf',
  /** A project's documents (PDF), for its owner, its assigned experts and admins. */
  proposal: '/documents/projects/:id/proposal.pdf',
  report: '/documents/projects/:id/report.pdf',
  /** Everything the site holds about the user (JSON). */
  myData: '/documents/my-data.json',
  /** A file uploaded to a project: the one document without locale forms (it has no language). */
  projectFile: '/project-files/:id/:docId',
} as const;

export type DocumentName = keyof typeof DOCUMENT_PATHS;

/**
 * The URL of a document, its parameters filled, in the form of the page's locale (the default
 * locale's unprefixed: localeHref); a project's file has its one URL whatever the locale.
 * `documentHref('report', 'en', { id: 7 })` → `/en/documents/projects/7/report.pdf`.
 */
export function documentHref(name: DocumentName, locale: Locale, params: Record<string, string | number> = {}): string {
  const path = fillParams(DOCUMENT_PATHS[name], Object.fromEntries(Object.entries(params).map(([key, value]) => [key, String(value)])));
  return name === 'projectFile' ? path : localeHref(path, locale);
}
