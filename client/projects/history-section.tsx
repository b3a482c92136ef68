// Every change of the project: who, when, from what to what. A page at a time,
// newest first, with "Show older" (older-pages.ts): a history only grows.
import { PROJECT_PAGE_PARAMS, type EventPage } from '../../shared/projects.ts';
import { isDeletedUser, personName } from '../../shared/account.ts';
import { intlLocale } from '../../shared/locales.ts';
import { useI18n } from '../runtime/i18n.tsx';
import { useOlderPages, type OlderList } from './older-pages.ts';

const HISTORY: OlderList = { param: PROJECT_PAGE_PARAMS.historyBefore, field: 'history', anchor: 'history-title' };

export function HistorySection({ page }: { page: EventPage }) {
  const { t, locale } = useI18n();
  const { items, olderHref, newestHref, loading, failed, showOlder } = useOlderPages(page, HISTORY);
  const format = new Intl.DateTimeFormat(intlLocale(locale), {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'Europe/Madrid',
  });
  return (
    <section aria-labelledby="history-title" className="project-section">
      <h2 id="history-title">{t('projects.page.historyTitle')}</h2>
      {items.length < page.total && <p className="field-hint">{t('projects.page.shownOf', { shown: items.length, count: page.total })}</p>}
      {newestHref && (
        <p className="list-more">
          <a href={newestHref}>{t('projects.page.showNewest')}</a>
        </p>
      )}
      <ol className="history" aria-busy={loading}>
        {items.map((e) => (
          <li key={e.id}>
            <time dateTime={e.at}>{format.format(new Date(e.at))}</time>{' '}
            {t(`projects.page.history.${e.kind}`, {
              actor: personName(t, { userName: e.actor, name: e.actorName }),
              detail: isDeletedUser(e.detail) ? t('account.deletedUser') : (e.detail ?? ''),
              from: e.from ? t(`projects.states.${e.from}`) : '',
              to: e.to ? t(`projects.states.${e.to}`) : '',
            })}
          </li>
        ))}
      </ol>
      {failed && (
        <p className="form-error" role="alert">
          {t('projects.page.olderFailed')}
        </p>
      )}
      {olderHref && (
        <p className="list-more">
          <a href={olderHref} onClick={(event) => void showOlder(event)} aria-disabled={loading || undefined}>
            {t('projects.page.showOlderEvents')}
          </a>
        </p>
      )}
    </section>
  );
}
