import { useId, useState, type FormEvent } from 'react';
import { useI18n } from '../../runtime/i18n.tsx';
import { SEARCH_MAX_LENGTH } from '../../../shared/paging.ts';

/** The search box above the users list; "Show all" appears while a search is shown. */
export function UsersSearch({
  enabled,
  searching,
  onSearch,
  onShowAll,
}: {
  enabled: boolean;
  /** Whether the list on screen answers a search. */
  searching: boolean;
  onSearch: (text: string) => void;
  onShowAll: () => void;
}) {
  const { t } = useI18n();
  const id = useId();
  const [text, setText] = useState('');

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSearch(text.trim());
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
        <button className="button button-primary" type="submit" disabled={!enabled}>
          {t('adminConsole.search.submit')}
        </button>
        {searching && (
          <button
            className="button button-secondary"
            type="button"
            onClick={() => {
              setText('');
              onShowAll();
            }}
            disabled={!enabled}
          >
            {t('adminConsole.search.showAll')}
          </button>
        )}
      </div>
      {/* Below the whole row, so that the button lines up with the box, not with the hint. */}
      <p className="field-hint" id={`${id}-hint`}>
        {t('adminConsole.search.hint')}
      </p>
    </form>
  );
}
