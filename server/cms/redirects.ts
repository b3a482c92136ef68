// The editors' redirects from the CMS: the "redirect" collection (server/cms/content.ts lists its
// fields), read page by page, oldest first (a second redirect from a path is refused: the first
// one wins). Each entry is checked by its shape (entries.ts) and then by the redirects' own rules
// (server/content/redirects.ts), each refusal logged at every read; the rest is served. A CMS
// without the type (404) has no redirects, with one warning.
import type { Logger } from '../base/logger.ts';
import { buildRedirectTable, logRefusedRedirects, NO_REDIRECTS, type RedirectTable } from '../content/redirects.ts';
import type { StrapiClient } from './client.ts';
import { LIST_PAGE_SIZE, type EntryReader } from './entries.ts';
import { CmsError } from './errors.ts';
import { normalizeResponse, paginationOf, type CmsEntry } from './normalize.ts';
import { redirectSchema } from './schemas.ts';

/** Pages of redirects read (100 each): past them a warning, and the oldest are served. */
export const MAX_REDIRECT_PAGES = 20;

export function createRedirectFetch({ client, logger, entries }: { client: StrapiClient; logger: Logger; entries: EntryReader }) {
  let missingWarned = false;

  /** One page of the collection; null when the CMS has no such type. */
  async function readPage(page: number): Promise<{ entries: CmsEntry[]; pageCount: number } | null> {
    let body: unknown;
    try {
      body = await client.get(
        '/api/redirects',
        { 'sort[0]': 'createdAt:asc', 'sort[1]': 'id:asc', 'pagination[page]': page, 'pagination[pageSize]': LIST_PAGE_SIZE },
        { as: 'public' },
      );
    } catch (error) {
      if (!(error instanceof CmsError && error.status === 404)) throw error;
      if (!missingWarned) logger.warn('CMS /api/redirects: not found (404): no redirects until the "redirect" collection exists');
      missingWarned = true;
      return null;
    }
    const answer = normalizeResponse(body);
    const found = answer.kind === 'collection' ? answer.entries : answer.entry ? [answer.entry] : [];
    return { entries: found, pageCount: paginationOf(answer.meta)?.pageCount ?? 1 };
  }

  return async function fetchRedirects(): Promise<RedirectTable> {
    const first = await readPage(1);
    if (first === null) return NO_REDIRECTS;
    const read = [...first.entries];
    if (first.pageCount > MAX_REDIRECT_PAGES) {
      logger.warn(`CMS redirects: ${first.pageCount} pages; only the first ${MAX_REDIRECT_PAGES} (the oldest redirects) are served`);
    }
    for (let page = 2; page <= Math.min(first.pageCount, MAX_REDIRECT_PAGES); page++) read.push(...((await readPage(page))?.entries ?? []));
    const valid = entries.validEntries(redirectSchema, read, 'redirect');
    const table = buildRedirectTable(valid, (index) => `CMS redirect ${String(valid[index]?.documentId ?? valid[index]?.id)}`);
    logRefusedRedirects(table, logger);
    return table;
  };
}
