import { ConsolePage } from '../admin/console-page.tsx';
import { InboxScreen } from '../admin/inbox/inbox-screen.tsx';
import type { PageProps } from '../runtime/page-chunks.ts';

/** The admin console's contact inbox (client/admin/inbox/). */
export default function AdminInboxPage(_props: PageProps) {
  return (
    <ConsolePage current="admin-inbox">
      <InboxScreen headingId="admin-inbox-title" />
    </ConsolePage>
  );
}
