// The pages of the one-click unsubscribe links (RFC 8058; docs/decisions/044), at
// UNSUBSCRIBE_PATH/<token>, without signing in:
// - POST with the body `List-Unsubscribe=One-Click`: what a mail program's "unsubscribe" button
//   does, and what the page's button does. It turns that topic off (never) for that user, or
//   every topic their digest gathers; 200 (a mail program), or 303 back to the page.
// - GET: a page that asks first (a link scanner that opens links must not unsubscribe anyone),
//   or says it is done when it is: what it says is read from the preferences, never from the
//   address (`?done=1` once said "done" to anyone who typed it, nothing posted).
// A token that is not one of ours, or a user who is no longer there, is a 404.
import busboy from 'busboy';
import express, { type Request, type Response, type Router } from 'express';
import type { i18n } from 'i18next';
import { defaultLocale, isLocale, type Locale } from '../../shared/locales.ts';
import { canonicalIdentity } from '../../shared/identity.ts';
import { MAIL_TOPICS, type MailPreferences, type UnsubscribeScope } from '../../shared/mail-preferences.ts';
import { localePath } from '../../shared/routes.ts';
import type { Logger } from '../base/logger.ts';
import type { Db } from '../db/index.ts';
import { escapeHtml } from '../http/html.ts';
import type { MailPreferencesStore } from './preferences.ts';
import { readUnsubscribeToken, unsubscribeTokenValid } from './unsubscribe-links.ts';

export type UnsubscribeDeps = {
  db: Db;
  /** The links' keys, newest first: a link made with any of them counts. */
  keys: readonly Buffer[];
  preferences: MailPreferencesStore;
  /** A page of its own in the site's look (server/sw/routes.ts standalonePage). */
  page: (locale: Locale, nonce: string, body: { title: string; html: string }) => string;
  i18n: i18n;
  logger: Logger;
};

/** The body RFC 8058 says a one-click POST carries. */
const ONE_CLICK = 'One-Click';
const BODY_MAX_BYTES = 1024;

/**
 * The fields of a multipart/form-data body (what RFC 8058 §3.1 says a mail program SHOULD send;
 * urlencoded MAY be sent and is parsed by express): a few small fields, no files; null when it
 * is anything else.
 */
function multipartFields(req: Request): Promise<Record<string, string> | null> {
  return new Promise((resolve) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fields: 10, fieldSize: BODY_MAX_BYTES, files: 0, parts: 10 } });
    } catch {
      resolve(null);
      return;
    }
    const fields: Record<string, string> = {};
    let refused = false;
    let read = 0;
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated || info.nameTruncated) refused = true;
      else fields[name] = value;
    });
    parser.on('file', (_name, stream) => {
      refused = true;
      stream.resume();
    });
    parser.on('fieldsLimit', () => (refused = true));
    parser.on('partsLimit', () => (refused = true));
    parser.on('filesLimit', () => (refused = true));
    parser.on('error', () => resolve(null));
    parser.on('close', () => resolve(refused ? null : fields));
    req.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > BODY_MAX_BYTES * 4) {
        refused = true;
        req.unpipe(parser);
        req.resume();
        resolve(null);
      }
    });
    req.pipe(parser);
  });
}

/** Whether the link's scope is off already: its topic never e-mailed, or no topic left in the digest. */
function unsubscribed(prefs: MailPreferences, scope: UnsubscribeScope): boolean {
  return scope === 'digest' ? MAIL_TOPICS.every((topic) => prefs[topic] !== 'digest') : prefs[scope] === 'never';
}

export function unsubscribeRoutes(deps: UnsubscribeDeps): Router {
  const router = express.Router();
  const { k } = deps.db;

  /** The user the token names, if they still have an account, with the language they last used. */
  async function whoIs(token: string): Promise<{ userName: string; scope: UnsubscribeScope; locale: Locale } | null> {
    const read = readUnsubscribeToken(token);
    if (!read) return null;
    const user = await k
      .selectFrom('users')
      .leftJoin('user_locales', 'user_locales.user_name', 'users.user_name')
      .select(['users.id', 'users.user_name', 'users.created_at', 'user_locales.locale'])
      .where('users.id', '=', read.id)
      .executeTakeFirst();
    if (!user) return null;
    const userName = canonicalIdentity(user.user_name);
    if (!unsubscribeTokenValid(deps.keys, read, { userName, id: Number(user.id), createdAt: user.created_at })) return null;
    return { userName, scope: read.scope, locale: isLocale(user.locale) ? user.locale : defaultLocale };
  }

  function send(res: Response, status: number, locale: Locale, title: string, html: string) {
    res
      .status(status)
      .set({
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-store',
        // The token is in the address: never sent on to another site.
        'Referrer-Policy': 'no-referrer',
        'X-Robots-Tag': 'noindex',
      })
      .send(deps.page(locale, String(res.locals.cspNonce ?? ''), { title, html }));
  }

  function words(locale: Locale) {
    const t = deps.i18n.getFixedT(locale, 'common');
    return {
      t,
      topic: (scope: UnsubscribeScope) => (scope === 'digest' ? '' : t(`account.mail.topics.${scope}`)),
      settings: `<p><a href="${escapeHtml(localePath('profile', locale))}#mail-title">${escapeHtml(t('unsubscribe.settings'))}</a></p>`,
    };
  }

  function invalid(req: Request, res: Response) {
    const locale = defaultLocale;
    const { t, settings } = words(locale);
    if (req.method === 'POST' && !req.accepts('html')) {
      res.status(404).set('Cache-Control', 'no-store').type('text/plain').send('No such unsubscribe link');
      return;
    }
    send(res, 404, locale, t('unsubscribe.invalidTitle'), `<p>${escapeHtml(t('unsubscribe.invalid'))}</p>${settings}`);
  }

  router.get('/:token', async (req, res, next) => {
    try {
      const who = await whoIs(req.params.token);
      if (!who) return invalid(req, res);
      const { t, topic, settings } = words(who.locale);
      const digest = who.scope === 'digest';
      if (unsubscribed(await deps.preferences.get(who.userName), who.scope)) {
        const said = digest ? t('unsubscribe.doneDigest') : t('unsubscribe.done', { topic: topic(who.scope) });
        return send(res, 200, who.locale, t('unsubscribe.title'), `<p role="status">${escapeHtml(said)}</p>${settings}`);
      }
      const ask = digest ? t('unsubscribe.askDigest') : t('unsubscribe.ask', { topic: topic(who.scope) });
      send(
        res,
        200,
        who.locale,
        t('unsubscribe.title'),
        `<p>${escapeHtml(ask)}</p>` +
          `<form method="post"><input type="hidden" name="List-Unsubscribe" value="${ONE_CLICK}">` +
          `<input type="hidden" name="from" value="page">` +
          `<p><button class="button button-primary" type="submit">${escapeHtml(t('unsubscribe.confirm'))}</button></p></form>` +
          settings,
      );
    } catch (error) {
      next(error);
    }
  });

  router.post('/:token', express.urlencoded({ extended: false, limit: '1kb', parameterLimit: 10 }), async (req, res, next) => {
    try {
      const body = req.is('multipart/form-data') ? await multipartFields(req) : ((req.body ?? {}) as Record<string, unknown>);
      if (body === null) {
        res.status(400).set('Cache-Control', 'no-store').type('text/plain').send('The body is not a small form (at most 1 KiB, no files)');
        return;
      }
      if (body['List-Unsubscribe'] !== ONE_CLICK) {
        res.status(400).set('Cache-Control', 'no-store').type('text/plain').send('The body must be List-Unsubscribe=One-Click (RFC 8058)');
        return;
      }
      const who = await whoIs(req.params.token);
      if (!who) return invalid(req, res);
      await deps.preferences.unsubscribe(who.userName, who.scope);
      deps.logger.info({ userName: who.userName, scope: who.scope }, 'unsubscribed by an e-mail link');
      if (body.from === 'page') {
        res
          .status(303)
          .set('Cache-Control', 'no-store')
          .set('Referrer-Policy', 'no-referrer')
          .location(`${req.baseUrl}/${req.params.token}`)
          .end();
        return;
      }
      res.status(200).set('Cache-Control', 'no-store').type('text/plain').send('Unsubscribed');
    } catch (error) {
      next(error);
    }
  });

  return router;
}
