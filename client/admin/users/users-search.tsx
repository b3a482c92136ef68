import { useId, useState, type FormEvent, type MouseEvent } from 'react';
import { useLocation } from 'react-router-dom';
import { useI18n } from '../../runtime/i18n.tsx';
import { SEARCH_MAX_LENGTH } from '../../../shared/paging.ts';

/**
 * The search box above the users list; "Show all" appears while a search is shown. A GET form
 * of the page's own URL (`?q=`): without JavaScript the server renders the search.
 */
export function UsersSearch({
  initial,
  enabled,
  searching,
  onSearch,
  onShowAll,
}: {
  /** The search the page was rendered with. */
  initial: string;
  enabled: boolean;
  /** Whether the list on screen answers a search. */
  searching: boolean;
  onSearch: (text: string) => void;
  onShowAll: () => void;
}) {
  const { t } = useI18n();
  const id = useId();
  const { pathname } = useLocation();
  const [text, setText] = useState(initial);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (!enabled) return;
    event.preventDefault();
    onSearch(text.trim());
  }

  function onShowAllClick(event: MouseEvent<HTMLAnchorElement>) {
    if (!enabled) return;
    event.preventDefault();
    setText('');
    onShowAll();
  }

  return (
    <form className="inline-form admin-search" role="search" method="get" noValidate onSubmit={onSubmit}>
      <div className="field">
        <label htmlFor={`${id}-q`}>{t('adminConsole.search.label')}</label>
        <input
          id={`${id}-q`}
          name="q"
          type="search"
          maxLength={SEARCH_MAX_LENGTH}
          value={text}
          onChange={(event) => setText(event.target.value)}
          aria-describedby={`${id}-hint`}
        />
      </div>
      <div className="actions">
        <button className="button button-primary" type="submit">
          {t('adminConsole.search.submit')}
        </button>
        {searching && (
          <a className="button button-secondary" href={pathname} onClick={onShowAllClick}>
            {t('adminConsole.search.showAll')}
          </a>
        )}
      </div>
      {/* Below the whole row, so that the button lines up with the box, not with the hint. */}
      <p className="field-hint" id={`${id}-hint`}>
        {t('adminConsole.search.hint')}
      </p>
    </form>
  );
}
