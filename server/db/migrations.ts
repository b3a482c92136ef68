// The schema's history, written once for both engines with Kysely's schema builder; the few
// differences (auto-increment ids, case-insensitive text, binary data) come from `columnTypes`
// (migrations/migration.ts). One file per migration in migrations/, named by its version, listed
// here in that order. Applied at start (and by `npm run db:migrate`), in one transaction, by one
// instance at a time: PostgreSQL holds an advisory lock, SQLite a write lock (BEGIN IMMEDIATE).
// Never edit a migration that has shipped: add the next one.
import type { Migration } from './migrations/migration.ts';
import { baseline } from './migrations/0001-baseline.ts';
import { sessions } from './migrations/0002-sessions.ts';
import { filesAndChanges } from './migrations/0003-files-and-changes.ts';
import { projects } from './migrations/0004-projects.ts';
import { mailOutbox } from './migrations/0005-mail-outbox.ts';
import { accountLinks } from './migrations/0006-account-links.ts';
import { auditLog } from './migrations/0007-audit-log.ts';
import { twoFactor } from './migrations/0008-two-factor.ts';
import { accountDeletionRequests } from './migrations/0009-account-deletion-requests.ts';
import { documentChunks } from './migrations/0010-document-chunks.ts';
import { mailPriority } from './migrations/0011-mail-priority.ts';
import { milestoneEvents } from './migrations/0012-milestone-events.ts';
import { canonicalIdentities } from './migrations/0013-canonical-identities.ts';
import { documentQuotas } from './migrations/0014-document-quotas.ts';
import { projectCounts } from './migrations/0015-project-counts.ts';
import { proposalVersions } from './migrations/0016-proposal-versions.ts';
import { companies } from './migrations/0017-companies.ts';
import { companyBranding } from './migrations/0018-company-branding.ts';
import { notifications } from './migrations/0019-notifications.ts';
import { notificationActors } from './migrations/0020-notification-actors.ts';
import { calendarFeeds } from './migrations/0021-calendar-feeds.ts';
import { mailPreferences } from './migrations/0022-mail-preferences.ts';
import { localesAsData } from './migrations/0023-locales-as-data.ts';
import { noticeFanOuts } from './migrations/0024-notice-fan-outs.ts';
import { contactInbox } from './migrations/0025-contact-inbox.ts';
import { search } from './migrations/0026-search.ts';

export type { Engine, Migration } from './migrations/migration.ts';

export const MIGRATIONS: readonly Migration[] = [
  baseline,
  sessions,
  filesAndChanges,
  projects,
  mailOutbox,
  accountLinks,
  auditLog,
  twoFactor,
  accountDeletionRequests,
  documentChunks,
  mailPriority,
  milestoneEvents,
  canonicalIdentities,
  documentQuotas,
  projectCounts,
  proposalVersions,
  companies,
  companyBranding,
  notifications,
  notificationActors,
  calendarFeeds,
  mailPreferences,
  localesAsData,
  noticeFanOuts,
  contactInbox,
  search,
];
