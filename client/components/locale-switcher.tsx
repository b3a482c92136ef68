import { Link } from 'react-router-dom';
import { LOCALES } from '../../shared/locales.ts';
import type { PagePayload } from '../../shared/page-data.ts';
import { localePath, routeByName, type RouteParams } from '../../shared/routes.ts';
import { useI18n } from '../i18n.tsx';

/** seed-spec §2: lists every locale except the current one, and keeps the current page. */
export function LocaleSwitcher({ payload }: { payload: PagePayload }) {
  const { t, locale } = useI18n();
  const route = payload.routeName ? routeByName(payload.routeName) : undefined;
  const params: RouteParams = payload.params;
  const query = payload.url.includes('?') ? payload.url.slice(payload.url.indexOf('?')) : '';
  return (
    <ul className="locale-switcher" aria-label={t('nav.language')}>
      {LOCALES.filter((l) => l.code !== locale).map((l) => (
        <li key={l.code}>
          <Link
            to={(route ? localePath(route.base, l.code, params) : localePath('index', l.code)) + (route ? query : '')}
            hrefLang={l.code}
            lang={l.code}
            data-locale={l.code}
          >
            {l.name}
          </Link>
        </li>
      ))}
    </ul>
  );
}
