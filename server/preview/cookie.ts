// The preview cookie (`cms.preview`), like Next.js's draft mode: it says "show drafts" and
// nothing else — which page, the URL says. Sealed as the session cookie is (authenticated
// encryption, server/auth/session-cookie.ts) with a key of its own, derived from SESSION_SECRET and
// CMS_PREVIEW_SECRET (changing either ends every preview), around a random id and its expiry:
// it cannot be forged, and it never holds the secret. One hour, httpOnly, Secure under HTTPS
// and in production.
//
// SameSite=Lax, except inside Strapi's preview pane: that is a frame of another site, where a
// Lax cookie is neither stored nor sent, so the preview would show the published page. A
// /preview request the browser marks `Sec-Fetch-Dest: iframe` gets `SameSite=None; Secure;
// Partitioned` instead (CHIPS): the browser keeps it only for frames under the CMS's pages,
// never for our own site in a tab nor for any other site (docs/decisions/019).
import type { CookieOptions, Request, Response } from 'express';
import { createHash, randomBytes } from 'node:crypto';
import { createSessionCodec } from '../auth/session-cookie.ts';
import { deriveKeys } from '../auth/keys.ts';

export const PREVIEW_COOKIE = 'cms.preview';
export const PREVIEW_COOKIE_MAX_AGE_MS = 60 * 60 * 1000;

export type PreviewCookie = {
  /** Starts the preview for this browser (the frame's variant when the request is a frame's). */
  start(req: Request, res: Response): Promise<void>;
  /** Whether the request carries a preview cookie that opens and has not expired. */
  active(req: Request): Promise<boolean>;
  /** Ends it (both variants). */
  clear(req: Request, res: Response): void;
  /** Whether the request carries a preview cookie at all (valid or not). */
  present(req: Request): boolean;
};

/** `sessionSecrets`: SESSION_SECRETS, newest first (the cookie is sealed with the first, opened with any). */
export function createPreviewCookie(options: {
  sessionSecrets: readonly string[];
  previewSecret: string;
  production: boolean;
}): PreviewCookie {
  const purpose = `cms preview cookie v1 ${createHash('sha256').update(options.previewSecret).digest('base64url')}`;
  const codec = createSessionCodec(deriveKeys(options.sessionSecrets, purpose));

  const lax = (req: Request): CookieOptions => ({ httpOnly: true, sameSite: 'lax', secure: req.secure || options.production, path: '/' });
  const framed: CookieOptions = { httpOnly: true, sameSite: 'none', secure: true, partitioned: true, path: '/' };
  const valueOf = (req: Request): unknown => (req.cookies as Record<string, unknown> | undefined)?.[PREVIEW_COOKIE];

  return {
    async start(req, res) {
      const sealed = await codec.seal({
        id: randomBytes(32).toString('base64url'),
        exp: Math.floor((Date.now() + PREVIEW_COOKIE_MAX_AGE_MS) / 1000),
      });
      const inFrame = req.get('sec-fetch-dest') === 'iframe';
      res.cookie(PREVIEW_COOKIE, sealed, { ...(inFrame ? framed : lax(req)), maxAge: PREVIEW_COOKIE_MAX_AGE_MS });
    },
    async active(req) {
      const value = valueOf(req);
      return typeof value === 'string' && value !== '' && (await codec.unseal(value)) !== null;
    },
    clear(req, res) {
      res.clearCookie(PREVIEW_COOKIE, lax(req));
      res.clearCookie(PREVIEW_COOKIE, framed);
    },
    present(req) {
      return valueOf(req) !== undefined;
    },
  };
}
