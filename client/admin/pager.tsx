import { useI18n } from '../runtime/i18n.tsx';

/**
 * Previous / "Page 2 of 5" / Next under a paged list. `messages` names the list's own texts
 * (`label`, `previous`, `next`, `status`), e.g. adminConsole.pager for the users.
 */
export function Pager({
  messages,
  page,
  pages,
  disabled,
  onGo,
}: {
  messages: string;
  page: number;
  pages: number;
  /** Both buttons off (no JavaScript yet, or a page on its way). */
  disabled: boolean;
  onGo: (page: number) => void;
}) {
  const { t } = useI18n();
  return (
    <nav className="pager" aria-label={t(`${messages}.label`)}>
      <button
        className="button button-secondary button-small"
        type="button"
        onClick={() => onGo(page - 1)}
        disabled={disabled || page <= 1}
      >
        {t(`${messages}.previous`)}
      </button>
      <span aria-live="polite">{t(`${messages}.status`, { page, pages })}</span>
      <button
        className="button button-secondary button-small"
        type="button"
        onClick={() => onGo(page + 1)}
        disabled={disabled || page >= pages}
      >
        {t(`${messages}.next`)}
      </button>
    </nav>
  );
}
