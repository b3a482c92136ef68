// The screens of the admin console, in page order. A new screen is one file that takes
// AdminScreenProps (screen.ts) and one entry here: the page renders it and links to it.
import type { ComponentType } from 'react';
import { AuditScreen } from './audit/audit-screen.tsx';
import { InboxScreen } from './inbox/inbox-screen.tsx';
import { PipelineScreen } from './pipeline-screen.tsx';
import type { AdminScreenProps } from './screen.ts';
import { UsersScreen } from './users/users-screen.tsx';
import { DeletionsScreen } from './deletions/deletions-screen.tsx';

export type AdminSection = {
  /** The id of the screen's h2, the target of its link in the page's list of sections. */
  headingId: string;
  /** The message key of that link's text. */
  navLabel: string;
  Screen: ComponentType<AdminScreenProps>;
};

export const ADMIN_SECTIONS: readonly AdminSection[] = [
  { headingId: 'pipeline-title', navLabel: 'adminInbox.sections.projects', Screen: PipelineScreen },
  { headingId: 'admin-users-title', navLabel: 'adminInbox.sections.users', Screen: UsersScreen },
  { headingId: 'admin-inbox-title', navLabel: 'adminInbox.sections.inbox', Screen: InboxScreen },
  { headingId: 'admin-audit-title', navLabel: 'adminAudit.sectionLink', Screen: AuditScreen },
  { headingId: 'admin-deletions-title', navLabel: 'adminDeletions.section', Screen: DeletionsScreen },
];
