// The admin console's audit log (/admin/audit): the page and filter of the URL
// (`?auditAction=…&auditUser=…&auditFrom=…&auditTo=…&auditPage=2`), or the last page past the end.
import { AUDIT_PAGE_SIZE, type AuditView } from '../../shared/audit.ts';
import { auditQueryOfUrl } from '../audit/query.ts';
import { AUDIT_ACTIONS } from '../audit/types.ts';
import { requireSession, type LoaderArgs, type PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'auditLog'>;

async function auditView({ services: { auditLog }, query }: LoaderArgs<Uses>): Promise<AuditView> {
  const { filter, page } = auditQueryOfUrl(query);
  const size = { page, pageSize: AUDIT_PAGE_SIZE };
  let list = auditLog ? await auditLog.list(filter, size) : { items: [], total: 0, ...size };
  const last = Math.max(1, Math.ceil(list.total / AUDIT_PAGE_SIZE));
  if (auditLog && page > last) list = await auditLog.list(filter, { ...size, page: last });
  return { list, filter, actions: AUDIT_ACTIONS };
}

export const loader = (async (args) => {
  requireSession(args);
  return { data: { audit: await auditView(args) } };
}) satisfies PageLoader<unknown, Uses>;
