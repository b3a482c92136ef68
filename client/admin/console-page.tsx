// What every page of the admin console shares: its title and the sub-navigation between its
// pages (the current one marked aria-current="page"). On a phone the links wrap: the page never
// scrolls sideways.
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { localePath } from '../../shared/routes.ts';
import { useI18n } from '../runtime/i18n.tsx';
import { CONSOLE_PAGES, type ConsolePage as Page } from './sections.ts';

export function ConsoleNav({ current }: { current: Page['base'] }) {
  const { t, locale } = useI18n();
  return (
    <nav className="admin-sections" aria-label={t('adminInbox.sections.label')}>
      <ul>
        {CONSOLE_PAGES.map(({ base, navLabel }) => (
          <li key={base}>
            <Link to={localePath(base, locale)} aria-current={base === current ? 'page' : undefined}>
              {t(navLabel)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** A page of the console: its h1 (the console's name), the sub-navigation, then the page's own content. */
export function ConsolePage({ current, children }: { current: Page['base']; children: ReactNode }) {
  const { t } = useI18n();
  return (
    <div className="container page admin-page">
      <h1>{t('pages.admin.title')}</h1>
      <ConsoleNav current={current} />
      {children}
    </div>
  );
}
