import { Link } from 'react-router-dom';
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE_DAYS } from '../../shared/constants.ts';
import { LOCALES, type Locale } from '../../shared/locales.ts';
import type { PagePayload } from '../../shared/page-data.ts';
import { routeByName, switchLocalePath } from '../../shared/routes.ts';
import { useI18n } from '../i18n.tsx';

/** DESIGN.md §3: with LOCALE_COOKIE on, the choice is remembered and decides the bare root `/`. */
function rememberLocale(locale: Locale): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=${LOCALE_COOKIE_MAX_AGE_DAYS * 86_400}; SameSite=Lax${secure}`;
}

/** seed-spec §2: lists every locale except the current one, and keeps the current page. */
export function LocaleSwitcher({ payload }: { payload: PagePayload }) {
  const { t, locale, localeCookie } = useI18n();
  const route = payload.routeName ? routeByName(payload.routeName) : undefined;
  const query = route && payload.url.includes('?') ? payload.url.slice(payload.url.indexOf('?')) : '';
  return (
    <ul className="locale-switcher" aria-label={t('nav.language')}>
      {LOCALES.filter((l) => l.code !== locale).map((l) => (
        <li key={l.code}>
          <Link
            to={switchLocalePath(route?.base ?? 'index', route ? payload.params : {}, l.code) + query}
            hrefLang={l.code}
            lang={l.code}
            data-locale={l.code}
            onClick={localeCookie ? () => rememberLocale(l.code) : undefined}
          >
            {l.name}
          </Link>
        </li>
      ))}
    </ul>
  );
}
