import { Link } from 'react-router-dom';
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE_DAYS } from '../../shared/constants.ts';
import { LOCALES, type Locale } from '../../shared/locales.ts';
import type { PagePayload, Post } from '../../shared/page-data.ts';
import { localePath, routeByName, switchLocalePath } from '../../shared/routes.ts';
import { useI18n } from '../runtime/i18n.tsx';

/** With LOCALE_COOKIE on, the choice is remembered and decides the bare root `/`. */
function rememberLocale(locale: Locale): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=${LOCALE_COOKIE_MAX_AGE_DAYS * 86_400}; SameSite=Lax${secure}`;
}

/**
 * The current page in `locale`: a post's translation (its own slug), or the blog when the post
 * is not written in that language; a tag (each language has its own) or a list's page N: the blog;
 * a practice or a case study not written in that language: their list.
 */
function pathIn(payload: PagePayload, locale: Locale): string {
  const route = payload.routeName ? routeByName(payload.routeName) : undefined;
  const state = payload.state;
  if (state.kind === 'page' && (state.page === 'blog-post' || state.page === 'blog')) {
    const slug = state.page === 'blog-post' ? (state.data as { post: Post }).post.translations[locale] : undefined;
    return slug ? localePath('blog-slug', locale, { slug }) : localePath('blog', locale);
  }
  // A practice or a case study not written in that language: the list of them there.
  if (state.kind === 'page' && (state.page === 'practice' || state.page === 'case-study')) {
    const { languages } = state.data as { languages: Locale[] };
    if (!languages.includes(locale)) return localePath(state.page === 'practice' ? 'practices' : 'case-studies', locale);
  }
  const query = route && payload.url.includes('?') ? payload.url.slice(payload.url.indexOf('?')) : '';
  return switchLocalePath(route?.base ?? 'index', route ? payload.params : {}, locale) + query;
}

/** Lists every locale except the current one, and keeps the current page. */
export function LocaleSwitcher({ payload }: { payload: PagePayload }) {
  const { t, locale, localeCookie } = useI18n();
  return (
    <ul className="locale-switcher" aria-label={t('nav.language')}>
      {LOCALES.filter((l) => l.code !== locale).map((l) => (
        <li key={l.code}>
          <Link
            to={pathIn(payload, l.code)}
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
