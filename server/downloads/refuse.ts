// A download that cannot start now: 429 (this user has as many running as they may) or 503 (the
// process is at its cap), always with Retry-After, and a message that says what to do — as text
// for scripts (curl, fetch), a page for a browser that followed a link, JSON for API clients.
import type { Response } from 'express';

export type DownloadRefusal = {
  status: 429 | 503;
  retryAfterSeconds: number;
  /** Machine-readable, as the API's errors: `{error: {code, message}}`. */
  code: string;
  message: string;
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function refuseDownload(res: Response, refusal: DownloadRefusal): void {
  const { status, retryAfterSeconds, code, message } = refusal;
  res.status(status).set({ 'Retry-After': String(retryAfterSeconds), 'Cache-Control': 'private, no-store' });
  const text = () => res.type('text/plain').send(message);
  // `*/*` (curl, fetch) gets the first: plain text.
  res.format({
    'text/plain': text,
    'text/html': () =>
      res.send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
          `<title>Try again in ${retryAfterSeconds} seconds</title></head><body><p>${escapeHtml(message)}</p></body></html>`,
      ),
    'application/json': () => res.json({ error: { code, message } }),
    default: text,
  });
}
