// The theme switch without JavaScript: POST /theme (and /es/theme, /en/theme) with `theme`
// light | dark | system and `redirect`, the page to go back to (a safe local path only, as for
// the consent form). The choice is a cookie for a year (not httpOnly: it is a preference the
// switch also sets from the browser); `system` removes it.
import express, { type Request, type RequestHandler } from 'express';
import { formOfPath, routePath } from '../../shared/routes.ts';
import { safeRedirectPath } from '../../shared/safe-path.ts';
import { parseTheme, parseThemeChoice, THEME_COOKIE, THEME_COOKIE_MAX_AGE_DAYS, type Theme } from '../../shared/theme.ts';

/** The visitor's chosen theme, from the request's cookies (null: none, or not a theme). */
export function themeOf(req: Request): Theme | null {
  return parseTheme((req.cookies as Record<string, unknown> | undefined)?.[THEME_COOKIE]);
}

export function themeHandler(): RequestHandler[] {
  return [
    express.urlencoded({ extended: false, limit: '2kb' }),
    (req, res) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const json = req.accepts(['html', 'json']) === 'json';
      res.set('Cache-Control', 'private, no-store');
      const choice = parseThemeChoice(body.theme);
      if (!choice) {
        const message = `Unknown theme ${JSON.stringify(String(body.theme ?? '')).slice(0, 40)}: light, dark or system`;
        if (json) res.status(400).json({ error: { code: 'bad_theme', message } });
        else res.status(400).type('text/plain').send(message);
        return;
      }
      const cookie = { sameSite: 'lax', secure: req.secure, httpOnly: false, path: '/' } as const;
      if (choice === 'system') res.clearCookie(THEME_COOKIE, cookie);
      else res.cookie(THEME_COOKIE, choice, { ...cookie, maxAge: THEME_COOKIE_MAX_AGE_DAYS * 24 * 60 * 60 * 1000 });
      if (json) res.json({ ok: true, theme: choice });
      else res.redirect(303, safeRedirectPath(body.redirect, routePath('index', formOfPath(req.path))));
    },
  ];
}
