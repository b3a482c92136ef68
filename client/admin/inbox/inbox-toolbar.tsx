import { useI18n } from '../../runtime/i18n.tsx';

/** The "only unread" filter and the button that loads the list (or brings it up to date). */
export function InboxToolbar({
  filterId,
  onlyUnread,
  loaded,
  hydrated,
  loading,
  onFilterChange,
  onReload,
}: {
  /** The checkbox's id is `${filterId}-unread`. */
  filterId: string;
  onlyUnread: boolean;
  /** A page of the list is shown. */
  loaded: boolean;
  hydrated: boolean;
  loading: boolean;
  onFilterChange: (unread: boolean) => void;
  onReload: () => void;
}) {
  const { t } = useI18n();
  return (
    <div className="admin-inbox-toolbar">
      <div className="field-check admin-inbox-filter">
        <input
          id={`${filterId}-unread`}
          type="checkbox"
          checked={onlyUnread}
          disabled={!hydrated}
          onChange={(event) => onFilterChange(event.target.checked)}
        />
        <label htmlFor={`${filterId}-unread`}>{t('adminInbox.onlyUnread')}</label>
      </div>
      <button className="button button-secondary button-small" type="button" disabled={!hydrated || loading} onClick={onReload}>
        {t(loaded ? 'adminInbox.refresh' : 'adminInbox.load')}
      </button>
    </div>
  );
}
