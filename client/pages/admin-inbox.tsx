import { ConsolePage } from '../admin/console-page.tsx';
import { InboxScreen } from '../admin/inbox/inbox-screen.tsx';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/admin-inbox.ts';
import type { PageProps } from '../runtime/page-chunks.ts';

/** The admin console's contact inbox: a view of the messages, paged, and the message the URL opens (client/admin/inbox/). */
export default function AdminInboxPage({ data, form }: PageProps<LoaderData<typeof loader>>) {
  return (
    <ConsolePage current="admin-inbox">
      <InboxScreen inbox={data.inbox} form={form} headingId="admin-inbox-title" />
    </ConsolePage>
  );
}
