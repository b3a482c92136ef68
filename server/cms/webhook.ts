// POST /cms/webhook: Strapi's webhooks (Settings → Webhooks), so that what an editor publishes
// shows at once instead of after CMS_CACHE_SECONDS. The delivery is authenticated by the header
// Strapi is given, `Authorization: Bearer <CMS_WEBHOOK_SECRET>` (compared in constant time);
// the body is believed for no more than which event, which model and which entry (documentId,
// slug, page) — it only ever makes caches stale, and the pages are then read from the CMS
// itself. Each change is published on the change feed (server/cms/invalidation.ts), which every
// instance — this one included — applies to its own caches.
//
//   404  the webhook is not configured (no CMS_URL or no CMS_WEBHOOK_SECRET)
//   401  no Bearer secret, or the wrong one (nothing is read, nothing purged)
//   413  a body over MAX_BODY_BYTES          400  not JSON, no `event`, an entry event with no `model`
//   429  more than MAX_PER_MINUTE deliveries on this instance in a minute (caches still expire by TTL)
//   200  {"purged": [topics]} or {"ignored": reason} (a draft created, an event or model the site does not show)
//
// Events: entry.create (only when it is published: Strapi 5 creates drafts), entry.update,
// entry.publish, entry.unpublish, entry.delete → that entry's model; media.create|update|delete
// → everything (covers, images in posts and pages, logos); releases.publish → everything. An
// entry that is null, or the same event twice, is answered the same way: purging is idempotent.
import express, { type Request, type RequestHandler, type Response } from 'express';
import { SLUG_PATTERN } from '../../shared/blog.ts';
import { LEGAL_PAGES } from '../../shared/routes.ts';
import type { ChangeFeed } from '../db/changes.ts';
import type { Logger } from '../base/logger.ts';
import { secretMatches } from '../http/secret.ts';
import { DOCUMENT_ID } from './drafts.ts';
import { BRANDING_USER, topicOf, type CmsChange } from './invalidation.ts';

export const WEBHOOK_PATH = '/cms/webhook';
/** Strapi sends the whole entry; a long post is well under this. */
export const MAX_BODY_BYTES = 512 * 1024;
/** Deliveries one instance acts on per minute: a flood (or a replay) only costs this much. */
export const MAX_PER_MINUTE = 600;

const ENTRY_EVENTS = new Set(['entry.create', 'entry.update', 'entry.publish', 'entry.unpublish', 'entry.delete']);
const EVERYTHING_EVENTS = new Set(['media.create', 'media.update', 'media.delete', 'releases.publish']);

export type WebhookOutcome = { changes: CmsChange[] } | { ignored: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

class BadDelivery extends Error {}

/** What a delivery changed, from its event, model and entry only. Throws BadDelivery for a body that is not one. */
export function changesOf(body: unknown): WebhookOutcome {
  if (!isRecord(body)) throw new BadDelivery('The body must be a JSON object');
  const { event, model } = body;
  if (typeof event !== 'string' || event === '' || event.length > 100) throw new BadDelivery('The body has no "event"');
  if (EVERYTHING_EVENTS.has(event)) return { changes: [{ model: 'all' }] };
  if (!ENTRY_EVENTS.has(event)) return { ignored: `the event ${JSON.stringify(event)} changes nothing the site shows` };
  if (typeof model !== 'string' || model === '' || model.length > 100) throw new BadDelivery(`The ${event} body has no "model"`);
  const entry = isRecord(body.entry) ? body.entry : {};
  // Strapi 5 creates drafts (published later: entry.publish); a type without Draft & Publish, or Strapi 4, may create it published.
  if (event === 'entry.create' && !entry.publishedAt) return { ignored: 'a draft was created' };
  const text = (value: unknown, pattern: RegExp) => (typeof value === 'string' && pattern.test(value) ? value : undefined);
  if (model === 'post')
    return { changes: [{ model: 'post', documentId: text(entry.documentId, DOCUMENT_ID), slug: text(entry.slug, SLUG_PATTERN) }] };
  if (model === 'legal-page') return { changes: [{ model: 'legal-page', page: LEGAL_PAGES.find((p) => p === entry.page) }] };
  // Posts show their tags.
  if (model === 'tag') return { changes: [{ model: 'post' }] };
  // The home page shows its single type and the case studies.
  if (model === 'home' || model === 'case-study' || model === 'practice' || model === 'author') return { changes: [{ model: 'home' }] };
  if (model === 'redirect') return { changes: [{ model: 'redirect' }] };
  const user = /^(.+)-custom$/.exec(model)?.[1];
  if (user !== undefined) return { changes: [{ model: 'branding', userName: BRANDING_USER.test(user) ? user : undefined }] };
  return { ignored: `the model ${JSON.stringify(model)} is not shown by the site` };
}

function answerError(res: Response, status: number, code: string, message: string): void {
  res.status(status).set('Cache-Control', 'no-store').json({ error: { code, message } });
}

/** A fixed window of MAX_PER_MINUTE on this instance: true while there is room. */
function createWindow(max: number, now: () => number) {
  let start = 0;
  let count = 0;
  return {
    take(): number {
      const t = now();
      if (t - start >= 60_000) {
        start = t;
        count = 0;
      }
      if (count >= max) return Math.max(1, Math.ceil((start + 60_000 - t) / 1000));
      count++;
      return 0;
    },
  };
}

export type WebhookOptions = {
  /** CMS_WEBHOOK_SECRET, or null when the webhook is not configured. */
  secret: string | null;
  changes: Pick<ChangeFeed, 'publish'>;
  logger: Logger;
  maxPerMinute?: number;
  now?: () => number;
};

export function cmsWebhook(options: WebhookOptions): RequestHandler {
  const { secret, logger } = options;
  const window = createWindow(options.maxPerMinute ?? MAX_PER_MINUTE, options.now ?? Date.now);
  const readBody = express.text({ type: () => true, limit: MAX_BODY_BYTES });

  function bodyOf(req: Request, res: Response): Promise<string | null> {
    return new Promise((resolve) => {
      readBody(req, res, (error?: unknown) => {
        if (!error) return resolve(typeof req.body === 'string' ? req.body : '');
        const type = isRecord(error) ? error.type : undefined;
        if (type === 'entity.too.large') answerError(res, 413, 'body_too_large', `The body is over ${MAX_BODY_BYTES} bytes`);
        else answerError(res, 400, 'bad_body', 'The body could not be read');
        resolve(null);
      });
    });
  }

  return async (req, res) => {
    if (secret === null) return answerError(res, 404, 'not_found', 'The CMS webhook is not configured on this site');
    const bearer = /^Bearer (\S+)$/.exec(req.get('authorization') ?? '')?.[1];
    if (!secretMatches(bearer, secret)) {
      res.set('WWW-Authenticate', 'Bearer');
      return answerError(res, 401, 'unauthorized', 'Wrong or missing webhook secret (Authorization: Bearer …)');
    }
    const wait = window.take();
    if (wait > 0) {
      res.set('Retry-After', String(wait));
      return answerError(res, 429, 'too_many_deliveries', `Too many webhook deliveries: try again in ${wait} seconds`);
    }
    const text = await bodyOf(req, res);
    if (text === null) return;
    let outcome: WebhookOutcome;
    try {
      outcome = changesOf(JSON.parse(text) as unknown);
    } catch (error) {
      if (error instanceof SyntaxError) return answerError(res, 400, 'bad_body', 'The body is not JSON');
      if (error instanceof BadDelivery) return answerError(res, 400, 'bad_body', error.message);
      throw error;
    }
    if ('ignored' in outcome) {
      logger.debug({ reason: outcome.ignored }, 'CMS webhook: nothing to purge');
      return res.status(200).set('Cache-Control', 'no-store').json({ ignored: outcome.ignored });
    }
    const topics = [...new Set(outcome.changes.map(topicOf))];
    try {
      for (const topic of topics) await options.changes.publish(topic);
    } catch (error) {
      logger.warn({ err: error, topics }, 'CMS webhook: the change could not be told to the other instances');
      return answerError(res, 503, 'unavailable', 'The change could not be announced: try again');
    }
    logger.info({ topics }, 'CMS webhook: caches made stale');
    res.status(200).set('Cache-Control', 'no-store').json({ purged: topics });
  };
}
