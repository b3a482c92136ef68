// Every change of the project: who, when, from what to what. A page at a time,
// newest first, with "Show older" (older-pages.ts): a history only grows.
import { eventDetail, PROJECT_PAGE_PARAMS, type EventPage, type ProjectEvent } from '../../shared/projects.ts';
import { isDeletedUser, personName } from '../../shared/account.ts';
import { formatMoment } from '../my-account/when.ts';
import { useI18n } from '../runtime/i18n.tsx';
import { useOlderPages, type OlderList } from './older-pages.ts';
import { euros } from './proposal-section.tsx';

const HISTORY: OlderList = { param: PROJECT_PAGE_PARAMS.historyBefore, field: 'history', anchor: 'history-title' };

/** A line says what someone did: "Ana accepted proposal v2", not a change of state (older rows, without the move, still do). */
function historyKey(e: ProjectEvent): string {
  const d = eventDetail(e);
  if (e.kind === 'proposal' && d.version !== undefined)
    return `projects.page.history.${d.superseded ? 'proposalReplacing' : 'proposalVersion'}`;
  if (e.kind === 'state' && d.action)
    return `projects.page.history.moves.${d.action}${d.version !== undefined ? 'Version' : d.openMilestones ? 'Open' : ''}`;
  return `projects.page.history.${e.kind}`;
}

export function HistorySection({ page }: { page: EventPage }) {
  const { t, locale } = useI18n();
  const versionParams = (e: ProjectEvent) => {
    const d = eventDetail(e);
    return {
      version: d.version ?? '',
      superseded: d.superseded ?? '',
      fee: d.fee !== undefined ? euros(d.fee, locale) : '',
      ...(d.openMilestones ? { count: d.openMilestones } : {}),
    };
  };
  const { items, olderHref, newestHref, loading, failed, showOlder } = useOlderPages(page, HISTORY);
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
            <time dateTime={e.at}>{formatMoment(e.at, locale)}</time>{' '}
            {t(historyKey(e), {
              actor: personName(t, { userName: e.actor, name: e.actorName }),
              detail: isDeletedUser(e.detail) ? t('account.deletedUser') : (e.detail ?? ''),
              from: e.from ? t(`projects.states.${e.from}`) : '',
              to: e.to ? t(`projects.states.${e.to}`) : '',
              ...versionParams(e),
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
