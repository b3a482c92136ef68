// The theme switch with JavaScript: the page changes at once (no reload, no request) and the
// choice goes into the cookie the server reads on the next page (shared/theme.ts).
import { THEME_COOKIE, THEME_COOKIE_MAX_AGE_DAYS, type Theme } from '../../shared/theme.ts';

function systemTheme(): Theme {
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/**
 * Shows `theme` and remembers it. Choosing the theme the system prefers forgets the choice (the
 * cookie goes): the site follows the system again, as it did before anything was chosen.
 */
export function chooseTheme(theme: Theme): void {
  const root = document.documentElement;
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  const follow = theme === systemTheme();
  if (follow) delete root.dataset.theme;
  else root.dataset.theme = theme;
  const value = follow ? '; Max-Age=0' : `${theme}; Max-Age=${THEME_COOKIE_MAX_AGE_DAYS * 86_400}`;
  document.cookie = `${THEME_COOKIE}=${value}; Path=/; SameSite=Lax${secure}`;
}
