import { ConsolePage } from '../admin/console-page.tsx';
import { AuditScreen } from '../admin/audit/audit-screen.tsx';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/admin-audit.ts';
import type { PageProps } from '../runtime/page-chunks.ts';

/** The admin console's audit log: filtered and paged by the URL (client/admin/audit/). */
export default function AdminAuditPage({ data }: PageProps<LoaderData<typeof loader>>) {
  return (
    <ConsolePage current="admin-audit">
      <AuditScreen audit={data.audit} headingId="admin-audit-title" />
    </ConsolePage>
  );
}
