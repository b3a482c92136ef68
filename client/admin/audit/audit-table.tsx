import type { AuditRecord } from '../../../shared/audit.ts';
import { useI18n } from '../../runtime/i18n.tsx';
import { actionLabel, actorLabel, detailText, formatAuditTime } from './audit-text.ts';

/** A page of entries: when (the row's header, a card's title on a phone), what, who, to whom, facts, address. */
export function AuditTable({ items, page, pages }: { items: AuditRecord[]; page: number; pages: number }) {
  const { t, locale } = useI18n();
  const column = (key: string) => t(`adminAudit.columns.${key}`);
  const none = (
    <>
      <span aria-hidden="true">—</span>
      <span className="visually-hidden">{t('adminAudit.none')}</span>
    </>
  );
  return (
    <table className="data-table admin-audit-table cards-on-phone">
      <caption className="visually-hidden">{t('adminAudit.caption', { page, pages })}</caption>
      <thead>
        <tr>
          <th scope="col">{column('at')}</th>
          <th scope="col">{column('action')}</th>
          <th scope="col">{column('actor')}</th>
          <th scope="col">{column('target')}</th>
          <th scope="col">{column('detail')}</th>
          <th scope="col">{column('ip')}</th>
        </tr>
      </thead>
      <tbody>
        {items.map((record) => {
          const detail = detailText(t, locale, record);
          return (
            <tr key={record.id} className={record.action === 'sign_in_failed' ? 'admin-audit-failed' : undefined}>
              <th scope="row">
                <time dateTime={record.at}>{formatAuditTime(record.at, locale)}</time>
              </th>
              <td data-label={column('action')} className="admin-audit-action">
                {actionLabel(t, record.action)}
              </td>
              <td data-label={column('actor')} className={record.actor === null ? 'admin-audit-visitor' : undefined}>
                {actorLabel(t, record.actor)}
              </td>
              <td data-label={column('target')}>{record.target ?? none}</td>
              <td data-label={column('detail')}>{detail || none}</td>
              <td data-label={column('ip')}>{record.ip ? <span className="admin-audit-ip">{record.ip}</span> : none}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
