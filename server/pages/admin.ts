// The admin console (/admin): the pipeline of projects first, then users and the audit log.
import { AUDIT_PAGE_SIZE, type AuditView } from '../../shared/audit.ts';
import { auditQueryOfUrl } from '../audit/query.ts';
import { AUDIT_ACTIONS } from '../audit/types.ts';
import { areaProjects } from '../projects/area.ts';
import { requireSession, type LoaderArgs, type PageLoader } from '../render/page-module.ts';

/** The audit's page and filter of the URL (`auditAction=…&auditPage=2`), or the last page past the end. */
async function auditView({ services: { auditLog }, query }: LoaderArgs): Promise<AuditView> {
  const { filter, page } = auditQueryOfUrl(query);
  const size = { page, pageSize: AUDIT_PAGE_SIZE };
  let list = auditLog ? await auditLog.list(filter, size) : { items: [], total: 0, ...size };
  const last = Math.max(1, Math.ceil(list.total / AUDIT_PAGE_SIZE));
  if (auditLog && page > last) list = await auditLog.list(filter, { ...size, page: last });
  return { list, filter, actions: AUDIT_ACTIONS };
}

export const loader = (async (args) => {
  const session = requireSession(args);
  // The pipeline, the console's first screen, streams when the database is slow (server/render/streamed.ts).
  const pipeline = areaProjects(args.services.projects, session.user, args.query);
  const [users, audit] = await Promise.all([args.services.backend.listUsers(session.token, { page: 1 }), auditView(args)]);
  return { data: { users, pipeline, audit } };
}) satisfies PageLoader;
