import type { FormEvent } from 'react';
import { useLocation } from 'react-router-dom';
import { chooseTheme } from '../runtime/theme.ts';
import { localeHref } from '../../shared/locales.ts';
import { parseTheme, type Theme } from '../../shared/theme.ts';
import { useI18n } from '../runtime/i18n.tsx';

const OTHER: Record<Theme, Theme> = { light: 'dark', dark: 'light' };

/** A moon (to the dark theme) or a sun (to the light one), in the text's colour. */
function ThemeIcon({ theme }: { theme: Theme }) {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth="2">
      {theme === 'dark' ? (
        <path d="M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5z" strokeLinejoin="round" />
      ) : (
        <>
          <circle cx="12" cy="12" r="4.5" />
          <path
            d="M12 1.5v2.5M12 20v2.5M1.5 12H4M20 12h2.5M4.6 4.6l1.8 1.8M17.6 17.6l1.8 1.8M4.6 19.4l1.8-1.8M17.6 6.4l1.8-1.8"
            strokeLinecap="round"
          />
        </>
      )}
    </svg>
  );
}

/**
 * The navbar's theme switch (docs/decisions/023): a form posted to /theme, so that it works
 * without JavaScript, with two buttons of which the stylesheet shows one, the one to the other
 * theme — the page's theme (the cookie's, or the system's) is known to CSS from the first
 * paint, and the markup stays the same for every visitor (the render cache keeps one copy).
 * With JavaScript the theme changes at once, and the focus goes to the button now shown.
 */
export function ThemeSwitch() {
  const { t, locale } = useI18n();
  const { pathname, search } = useLocation();
  const action = localeHref('/theme', locale);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const theme = parseTheme(submitter?.value);
    if (!theme) return;
    event.preventDefault();
    chooseTheme(theme);
    event.currentTarget.querySelector<HTMLButtonElement>(`button[value="${OTHER[theme]}"]`)?.focus();
  }

  return (
    <form className="theme-switch" method="post" action={action} noValidate onSubmit={onSubmit}>
      <input type="hidden" name="redirect" value={pathname + search} />
      {(['dark', 'light'] as const).map((theme) => (
        <button key={theme} type="submit" name="theme" value={theme} className={`theme-to-${theme}`} title={t(`theme.to.${theme}`)}>
          <ThemeIcon theme={theme} />
          <span className="theme-switch-label">{t(`theme.to.${theme}`)}</span>
        </button>
      ))}
    </form>
  );
}
