import type { DeletionRequestItem } from '../../../shared/account.ts';
import type { SessionUser } from '../../../shared/user.ts';
import { formatMoment } from '../../my-account/when.ts';
import { useI18n } from '../../runtime/i18n.tsx';
import { PersonHeadCells } from '../person-columns.tsx';
import { fullName, roleLabel } from '../text.ts';

export type DecisionKind = 'confirm' | 'refuse';

type RowProps = {
  /** The buttons work (hydrated, no decision under way). */
  enabled: boolean;
  onAsk: (kind: DecisionKind, request: DeletionRequestItem) => void;
};

/** The deletion requests of a page, each with Confirm and Refuse (not Confirm on the admin's own). */
export function DeletionsTable({ items, user, ...row }: { items: DeletionRequestItem[]; user: SessionUser | null } & RowProps) {
  const { t } = useI18n();
  return (
    <table className="data-table cards-on-phone admin-deletions-table">
      <caption className="visually-hidden">{t('adminDeletions.title')}</caption>
      <thead>
        <tr>
          <PersonHeadCells />
          <th scope="col">{t('adminDeletions.requestedAt')}</th>
          <th scope="col">{t('adminConsole.list.actions')}</th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <DeletionRow key={item.userName} item={item} self={item.userName.toLowerCase() === user?.userName.toLowerCase()} {...row} />
        ))}
      </tbody>
    </table>
  );
}

function DeletionRow({ item, self, enabled, onAsk }: { item: DeletionRequestItem; self: boolean } & RowProps) {
  const { t, locale } = useI18n();
  const forUser = <span className="visually-hidden"> {item.userName}</span>;
  return (
    <tr>
      <th scope="row">
        {item.userName}
        {self && <span className="admin-you"> {t('adminConsole.list.you')}</span>}
      </th>
      <td data-label={t('adminConsole.list.name')}>{fullName(item)}</td>
      <td data-label={t('adminConsole.list.email')}>{item.email ?? '—'}</td>
      <td data-label={t('adminConsole.list.role')}>{roleLabel(t, item.role)}</td>
      <td data-label={t('adminDeletions.requestedAt')}>
        <time dateTime={item.requestedAt}>{formatMoment(item.requestedAt, locale)}</time>
      </td>
      <td>
        <div className="actions admin-row-actions">
          <button
            className="button button-danger button-small"
            type="button"
            disabled={!enabled || self}
            onClick={() => onAsk('confirm', item)}
          >
            {t('adminDeletions.confirm')}
            {forUser}
          </button>
          <button className="button button-secondary button-small" type="button" disabled={!enabled} onClick={() => onAsk('refuse', item)}>
            {t('adminDeletions.refuse')}
            {forUser}
          </button>
        </div>
        {self && <p className="field-hint">{t('adminDeletions.ownHint')}</p>}
      </td>
    </tr>
  );
}
