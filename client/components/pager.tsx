import type { MouseEvent } from 'react';
import { useI18n } from '../runtime/i18n.tsx';

/**
 * Previous / "Page 2 of 5" / Next under a paged list. `messages` names the list's own texts
 * (`label`, `previous`, `next`, `status`), e.g. adminConsole.pager for the users. With `href`
 * the two are links to the page's URL for that page (they work without JavaScript; with it
 * `onGo` fetches the page instead), else buttons.
 */
export function Pager({
  messages,
  page,
  pages,
  disabled,
  onGo,
  href,
}: {
  messages: string;
  page: number;
  pages: number;
  /** Both buttons off (no JavaScript yet, or a page on its way); links only while a page is on its way. */
  disabled: boolean;
  onGo: (page: number) => void;
  href?: ((page: number) => string) | undefined;
}) {
  const { t } = useI18n();
  const step = (to: number, key: string, rel: 'prev' | 'next', off: boolean) => {
    if (href && !off) {
      const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
        if (disabled) return;
        event.preventDefault();
        onGo(to);
      };
      return (
        <a className="button button-secondary button-small" href={href(to)} rel={rel} onClick={onClick}>
          {t(`${messages}.${key}`)}
        </a>
      );
    }
    return (
      <button className="button button-secondary button-small" type="button" onClick={() => onGo(to)} disabled={disabled || off}>
        {t(`${messages}.${key}`)}
      </button>
    );
  };
  return (
    <nav className="pager" aria-label={t(`${messages}.label`)}>
      {step(page - 1, 'previous', 'prev', page <= 1)}
      <span aria-live="polite">{t(`${messages}.status`, { page, pages })}</span>
      {step(page + 1, 'next', 'next', page >= pages)}
    </nav>
  );
}
