// The colour theme (docs/decisions/023): light, dark, or — no choice made — what the visitor's
// system prefers. The choice is a cookie the server reads on every request, so that the first
// paint is already in the right theme: <html data-theme="…"> (none for the system's).

export const THEME_COOKIE = 'theme';
export const THEME_COOKIE_MAX_AGE_DAYS = 365;

export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** What a form may ask for: a theme, or `system` (forget the choice). */
export type ThemeChoice = Theme | 'system';

/** The cookie's theme; anything else (absent, garbage) is no choice. */
export function parseTheme(value: unknown): Theme | null {
  return value === 'light' || value === 'dark' ? value : null;
}

export function parseThemeChoice(value: unknown): ThemeChoice | null {
  return value === 'system' ? value : parseTheme(value);
}
