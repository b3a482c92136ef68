// Drafts, for the preview (server/preview/): the same posts and legal pages as the public
// content (server/cms/content.ts), read in their draft version with CMS_PREVIEW_TOKEN and never
// cached — a separate content source with its own client, so a draft can neither fill nor be
// read from the public caches.
//
// Strapi 5 reads drafts with `status=draft` (the draft version of every document, published
// ones included: their latest edits); Strapi 4 with `publicationState=preview` (drafts and
// published entries). Neither has a permission of its own for drafts: whoever may `find` a
// collection may read its drafts (strapi/strapi#12309, #25326). Which Strapi answers is learned
// from the answers, once:
//   - `status=draft` refused (400) while `publicationState=preview` is not → Strapi 4;
//   - entries with a documentId → Strapi 5; entries without → Strapi 4 (which ignored `status`);
//   - an empty answer tells nothing: the Strapi 4 form is asked too, and its answer is right
//     either way (Strapi 5 ignoring it answers the published versions, a subset of the drafts,
//     and there are none; one that refuses it is Strapi 5, and the empty answer stands).
// A draft has no publishedAt: its last change (updatedAt) dates it.
import type { Locale } from '../../shared/locales.ts';
import type { LegalPageKey } from '../../shared/routes.ts';
import { LEGAL_PAGES } from '../../shared/routes.ts';
import { SLUG_PATTERN } from '../../shared/blog.ts';
import type { ContentSource } from '../content/source.ts';
import type { Logger } from '../base/logger.ts';
import type { CmsGetOptions, CmsQuery, StrapiClient } from './client.ts';
import { createStrapiContent } from './content.ts';
import { CmsError } from './errors.ts';
import { normalizeEntries } from './normalize.ts';

type Dialect = 'v5' | 'v4';

const DRAFT_PARAMETERS: Record<Dialect, Record<string, string>> = {
  v5: { status: 'draft' },
  v4: { publicationState: 'preview' },
};

/** A Strapi 5 documentId (24 lower-case letters and digits; any id of letters and digits is taken). */
export const DOCUMENT_ID = /^[A-Za-z0-9]{1,64}$/;

function withDraftParameters(query: CmsQuery | undefined, dialect: Dialect): URLSearchParams {
  const params = new URLSearchParams();
  if (query instanceof URLSearchParams) query.forEach((value, key) => params.append(key, value));
  else for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) params.append(key, String(value));
  for (const [key, value] of Object.entries(DRAFT_PARAMETERS[dialect])) params.set(key, value);
  return params;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Dates a draft (publishedAt null) by its last change, in either answer shape; the body is changed in place. */
function datedDrafts(body: unknown): unknown {
  if (!isRecord(body)) return body;
  const items = Array.isArray(body.data) ? body.data : [body.data];
  for (const item of items) {
    if (!isRecord(item)) continue;
    const fields = isRecord(item.attributes) ? item.attributes : item;
    fields.publishedAt ??= fields.updatedAt ?? fields.createdAt ?? null;
  }
  return body;
}

function entriesOf(body: unknown): { any: boolean; documentIds: boolean } {
  try {
    const entries = normalizeEntries(body);
    return { any: entries.length > 0, documentIds: entries.some((entry) => typeof entry.documentId === 'string') };
  } catch {
    // A malformed answer tells nothing here: the content's validation reports it.
    return { any: false, documentIds: false };
  }
}

const refused = (error: unknown) => error instanceof CmsError && error.reason === 'status' && error.status === 400;

/** A client whose reads return drafts, in whichever Strapi answers (learned once, see above). */
export function draftReadingClient(client: StrapiClient, logger: Logger): StrapiClient {
  let dialect: Dialect | null = null;
  const learn = (learned: Dialect) => {
    if (dialect === null) logger.debug({ dialect: learned }, `CMS drafts: reading them as Strapi ${learned === 'v5' ? 5 : 4} does`);
    dialect = learned;
  };
  const read = (path: string, query: CmsQuery | undefined, options: CmsGetOptions | undefined, as: Dialect) =>
    client.get(path, withDraftParameters(query, as), options);

  async function get(path: string, query?: CmsQuery, options?: CmsGetOptions): Promise<unknown> {
    if (dialect) return datedDrafts(await read(path, query, options, dialect));
    let first: unknown;
    try {
      first = await read(path, query, options, 'v5');
    } catch (error) {
      if (!refused(error)) throw error;
      // Refused: Strapi 4 (it does not know `status`) — or a query both refuse, whose error stands.
      try {
        const body = await read(path, query, options, 'v4');
        learn('v4');
        return datedDrafts(body);
      } catch (second) {
        if (refused(second)) throw error;
        throw second;
      }
    }
    const seen = entriesOf(first);
    if (seen.documentIds) {
      learn('v5');
      return datedDrafts(first);
    }
    if (seen.any) {
      learn('v4');
      return datedDrafts(await read(path, query, options, 'v4'));
    }
    try {
      const second = await read(path, query, options, 'v4');
      const then = entriesOf(second);
      if (then.documentIds) learn('v5');
      else if (then.any) learn('v4');
      return datedDrafts(second);
    } catch (error) {
      if (!refused(error)) throw error;
      learn('v5');
      return datedDrafts(first);
    }
  }

  return { origin: client.origin, timeoutMs: client.timeoutMs, get };
}

export type DraftTarget = { type: 'post'; slug: string } | { type: 'legal'; page: LegalPageKey };

export type StrapiDrafts = {
  /** Posts and legal pages in their draft version, never cached. */
  content: ContentSource;
  /** The slug (post) or page (legal page) of a Strapi 5 document's draft in a locale; null when there is none. */
  locate(type: DraftTarget['type'], documentId: string, locale: Locale): Promise<DraftTarget | null>;
};

export function createStrapiDrafts(options: { client: StrapiClient; mediaHosts?: readonly string[]; logger: Logger }): StrapiDrafts {
  const client = draftReadingClient(options.client, options.logger);
  const content = createStrapiContent({
    client,
    logger: options.logger,
    draft: true,
    ...(options.mediaHosts ? { mediaHosts: options.mediaHosts } : {}),
  });
  return {
    content,
    async locate(type, documentId, locale) {
      if (!DOCUMENT_ID.test(documentId)) return null;
      const path = type === 'post' ? '/api/posts' : '/api/legal-pages';
      const field = type === 'post' ? 'slug' : 'page';
      const body = await client.get(path, { 'filters[documentId][$eq]': documentId, locale, 'fields[0]': field });
      const entry = normalizeEntries(body).find((e) => e.documentId === documentId && (e.locale === undefined || e.locale === locale));
      const value = entry?.[field];
      if (type === 'post') return typeof value === 'string' && SLUG_PATTERN.test(value) ? { type, slug: value } : null;
      const page = LEGAL_PAGES.find((p) => p === value);
      return page ? { type, page } : null;
    },
  };
}
