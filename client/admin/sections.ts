// The pages of the admin console, in the order of its sub-navigation: the console's home
// (/admin) and one page per section, each a route of its own (shared/routes.ts) and a chunk of
// its own (client/pages/admin-*.tsx). A new section is a route, its two page modules and an
// entry here.
export type ConsolePage = {
  /** The route's base name (its path: localePath(base, locale)). */
  base: 'admin' | 'admin-projects' | 'admin-users' | 'admin-inbox' | 'admin-audit' | 'admin-deletions' | 'admin-branding';
  /** The message key of its link in the sub-navigation. */
  navLabel: string;
};

export const CONSOLE_PAGES: readonly ConsolePage[] = [
  { base: 'admin', navLabel: 'adminNav.home' },
  { base: 'admin-projects', navLabel: 'adminInbox.sections.projects' },
  { base: 'admin-users', navLabel: 'adminInbox.sections.users' },
  { base: 'admin-inbox', navLabel: 'adminInbox.sections.inbox' },
  { base: 'admin-audit', navLabel: 'adminAudit.sectionLink' },
  { base: 'admin-deletions', navLabel: 'adminDeletions.section' },
  { base: 'admin-branding', navLabel: 'adminNav.branding' },
];
