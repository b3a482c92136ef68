// Every change of the project: who, when, from what to what (DESIGN.md §8).
import type { Project } from '../../shared/projects.ts';
import { isDeletedUser, personName } from '../../shared/account.ts';
import { useI18n } from '../i18n.tsx';

export function HistorySection({ project }: { project: Project }) {
  const { t, locale } = useI18n();
  const format = new Intl.DateTimeFormat(locale === 'en' ? 'en-US' : 'es-ES', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'Europe/Madrid',
  });
  return (
    <section aria-labelledby="history-title" className="project-section">
      <h2 id="history-title">{t('projects.page.historyTitle')}</h2>
      <ol className="history">
        {[...project.events].reverse().map((e) => (
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
    </section>
  );
}
