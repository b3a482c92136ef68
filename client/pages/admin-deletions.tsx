import { ConsolePage } from '../admin/console-page.tsx';
import { DeletionsScreen } from '../admin/deletions/deletions-screen.tsx';
import type { PageProps } from '../runtime/page-chunks.ts';

/** The admin console's account deletion requests (client/admin/deletions/). */
export default function AdminDeletionsPage({ user }: PageProps) {
  return (
    <ConsolePage current="admin-deletions">
      <DeletionsScreen user={user} headingId="admin-deletions-title" />
    </ConsolePage>
  );
}
