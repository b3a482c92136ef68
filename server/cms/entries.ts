// What every read of the CMS does with its answer: entries checked one by one (a bad one is
// skipped with a warning), rich text rendered to sanitised HTML, media as images the site may show.
import type { z } from 'zod';
import { isLocale, type Locale } from '../../shared/locales.ts';
import type { ResponsiveImage } from '../../shared/page-data.ts';
import { loadMarkdown } from '../content/markdown-lazy.ts';
import type { Logger } from '../base/logger.ts';
import { blocksToMarkdown } from './blocks.ts';
import { cmsMediaUrl } from './media-url.ts';
import type { CmsEntry } from './normalize.ts';
import type { PostEntry } from './schemas.ts';

// Strapi answers at most `api.rest.maxLimit` entries a page (100 by default), whatever is asked:
// lists are read page by page, following meta.pagination.
export const LIST_PAGE_SIZE = 100;

export type EntryReader = ReturnType<typeof createEntryReader>;

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || 'entry'} ${issue.message}`).join('; ');
}

export function entryLocale(entry: { locale?: string | undefined }, asked: Locale): Locale {
  return isLocale(entry.locale) ? entry.locale : asked;
}

export function createEntryReader({ logger, cmsOrigin, mediaHosts }: { logger: Logger; cmsOrigin: string; mediaHosts: readonly string[] }) {
  function mediaUrl(url: unknown): string | null {
    return cmsMediaUrl(url, { cmsOrigin, mediaHosts });
  }

  async function toHtml(content: PostEntry['content']): Promise<string> {
    const { markdownToSafeHtml } = await loadMarkdown();
    const markdown = typeof content === 'string' ? content : blocksToMarkdown(content, { mediaUrl });
    // Images and links to the CMS's uploads go through the proxy; the sanitiser keeps only
    // images the CSP allows, so one on another host is dropped.
    return markdownToSafeHtml(markdown, { mediaHosts, rewriteUrl: mediaUrl });
  }

  function validEntries<T extends z.ZodType>(schema: T, entries: CmsEntry[], what: string): z.infer<T>[] {
    const valid: z.infer<T>[] = [];
    for (const entry of entries) {
      const result = schema.safeParse(entry);
      if (result.success) valid.push(result.data);
      else logger.warn({ entryId: entry.id }, `CMS ${what} ${String(entry.id)} skipped: ${describeIssues(result.error)}`);
    }
    return valid;
  }

  /** Items of a repeatable component, each checked: a bad one is skipped with a warning. */
  function validItems<T extends z.ZodType>(schema: T, items: readonly unknown[] | null | undefined, what: string): z.infer<T>[] {
    const valid: z.infer<T>[] = [];
    (items ?? []).forEach((item, i) => {
      const result = schema.safeParse(item);
      if (result.success) valid.push(result.data);
      else logger.warn({ item: i + 1 }, `CMS ${what} ${i + 1} skipped: ${describeIssues(result.error)}`);
    });
    return valid;
  }

  /** Strapi's media with its renditions (`formats`) as an image with a srcset; null when not showable. */
  function responsiveImage(cover: PostEntry['cover']): ResponsiveImage | null {
    const src = cover ? mediaUrl(cover.url) : null;
    if (!cover || !src) return null;
    const renditions = Object.values(cover.formats ?? {})
      .flatMap((format) => {
        const url = format ? mediaUrl(format.url) : null;
        return url && format ? [{ url, width: format.width, height: format.height }] : [];
      })
      .sort((a, b) => a.width - b.width);
    // The original's size, else (an upload provider that drops it) the largest rendition's.
    const largest = renditions.at(-1);
    const width = cover.width ?? largest?.width ?? 1200;
    const height = cover.height ?? largest?.height ?? 630;
    const widths = [...renditions.filter((r) => r.width < width), { url: src, width }];
    return {
      src,
      width,
      height,
      alt: cover.alternativeText ?? '',
      ...(widths.length > 1 ? { srcset: widths.map((r) => `${r.url} ${r.width}w`).join(', ') } : {}),
    };
  }

  return { toHtml, validEntries, validItems, responsiveImage };
}
