// The admin console's audit log: who did what to whom and when (sign-ins and failed ones,
// password and role changes, sessions ended, reports downloaded…), newest first, filtered by
// action, user and days, in pages. The server renders the page the URL asks for (so the filter
// and the pages work without JavaScript); with JavaScript they are fetched from the API.
import { useLocation } from 'react-router-dom';
import { AUDIT_PAGE_SIZE, type AuditFilter, type AuditPage, type AuditView } from '../../../shared/audit.ts';
import type { Translate } from '../../../shared/translate.ts';
import { useI18n } from '../../runtime/i18n.tsx';
import { fetchAudit } from './audit-api.ts';
import type { AdminScreenProps } from '../screen.ts';
import { failureText } from '../text.ts';
import { useHydrated } from '../../runtime/use-hydrated.ts';
import { usePagedList } from '../use-paged-list.ts';
import { AuditFilters } from './audit-filters.tsx';
import { AuditTable } from './audit-table.tsx';
import { auditHref, isFiltered } from './audit-text.ts';

export function AuditScreen({ audit: view, headingId }: Pick<AdminScreenProps, 'headingId'> & { audit: AuditView }) {
  const { t } = useI18n();
  const hydrated = useHydrated();
  const { pathname } = useLocation();
  const audit = usePagedList<AuditPage, AuditFilter>({
    initial: view.list,
    query: view.filter,
    fetchPage: (filter, page) => fetchAudit(filter, page, AUDIT_PAGE_SIZE),
  });
  // Rendered from the server's page, so never null.
  const { list, query: filter } = audit.shown ?? { list: view.list, query: view.filter };
  const href = (page: number, to: AuditFilter = filter) => auditHref(pathname, to, page, headingId);
  const go = (page: number) => (event: { preventDefault: () => void }) => {
    if (!hydrated) return;
    event.preventDefault();
    void audit.goTo(page);
  };

  return (
    <section className="admin-section admin-audit" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('adminAudit.title')}</h2>
      <p className="section-lead">{t('adminAudit.lead')}</p>

      <AuditFilters
        actions={view.actions}
        filter={filter}
        action={`${pathname}#${headingId}`}
        clearHref={href(1, {})}
        enabled={hydrated}
        onFilter={(next) => void audit.load(next, 1)}
      />

      <p className="admin-summary" role="status">
        {summary(t, audit.loading, list, filter)}
      </p>
      {audit.failure && (
        <p className="form-error" role="alert">
          {failureText(t, audit.failure, 'adminAudit.errors')}
        </p>
      )}

      {list.items.length > 0 && (
        <div className="table-wrap" aria-busy={audit.loading}>
          <AuditTable items={list.items} page={list.page} pages={audit.pages} />
        </div>
      )}

      {audit.pages > 1 && (
        <nav className="pager" aria-label={t('adminAudit.pager.label')}>
          {list.page > 1 ? (
            <a href={href(list.page - 1)} onClick={go(list.page - 1)} rel="prev">
              {t('adminAudit.pager.previous')}
            </a>
          ) : (
            <span />
          )}
          <span aria-live="polite">{t('adminAudit.pager.status', { page: list.page, pages: audit.pages })}</span>
          {list.page < audit.pages ? (
            <a href={href(list.page + 1)} onClick={go(list.page + 1)} rel="next">
              {t('adminAudit.pager.next')}
            </a>
          ) : (
            <span />
          )}
        </nav>
      )}
    </section>
  );
}

/** "120 entries.", "3 entries match the filter.", "Loading…", or that there is nothing. */
function summary(t: Translate, loading: boolean, list: AuditPage, filter: AuditFilter): string {
  if (loading) return t('adminAudit.loading');
  const filtered = isFiltered(filter);
  if (list.total === 0) return t(filtered ? 'adminAudit.noMatches' : 'adminAudit.empty');
  return t(filtered ? 'adminAudit.matches' : 'adminAudit.count', { count: list.total });
}
