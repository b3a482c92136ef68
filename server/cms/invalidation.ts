// What a change in the CMS makes stale, told to every instance through the change feed
// (server/db/changes.ts) — the instance that heard of it included — as one topic:
//
//   cms:post:<documentId>/<slug>   a post (either part may be empty, not both)
//   cms:post:*                     every post (a change that names none, a tag)
//   cms:legal-page:<page>|*        a legal page, or every one
//   cms:branding:<user>|*          a user's branding collection (`{user}-customs`), or every one
//   cms:redirect                   the editors' redirects
//   cms:all                        everything (media, which any page may show)
//
// Each instance then makes those entries of its own caches stale (content.ts purge, branding.ts
// forget). The render cache needs nothing: its key is a digest of the page's data, so a page
// read again from the CMS is another key (docs/decisions/006, 019).
import { SLUG_PATTERN } from '../../shared/blog.ts';
import { LEGAL_PAGES, type LegalPageKey } from '../../shared/routes.ts';
import type { ChangeFeed } from '../db/changes.ts';
import type { Logger } from '../base/logger.ts';
import type { ContentPurge, StrapiContent } from './content.ts';
import { DOCUMENT_ID } from './drafts.ts';

export const CMS_TOPIC_PREFIX = 'cms:';

export type CmsChange = ContentPurge | { model: 'branding'; userName?: string | undefined };

/** A branding collection's user (`acme` of `acme-customs`): what branding.ts accepts. */
export const BRANDING_USER = /^[a-z0-9][a-z0-9._-]{0,39}$/;

export function topicOf(change: CmsChange): string {
  switch (change.model) {
    case 'post':
      return change.documentId || change.slug
        ? `${CMS_TOPIC_PREFIX}post:${change.documentId ?? ''}/${change.slug ?? ''}`
        : `${CMS_TOPIC_PREFIX}post:*`;
    case 'legal-page':
      return `${CMS_TOPIC_PREFIX}legal-page:${change.page ?? '*'}`;
    case 'branding':
      return `${CMS_TOPIC_PREFIX}branding:${change.userName ?? '*'}`;
    case 'home':
      return `${CMS_TOPIC_PREFIX}home`;
    case 'redirect':
      return `${CMS_TOPIC_PREFIX}redirect`;
    case 'all':
      return `${CMS_TOPIC_PREFIX}all`;
  }
}

/** The change a topic names, or null for anything that is not one (checked as input: it crossed the database). */
export function changeOfTopic(topic: string): CmsChange | null {
  if (!topic.startsWith(CMS_TOPIC_PREFIX)) return null;
  const rest = topic.slice(CMS_TOPIC_PREFIX.length);
  if (rest === 'all') return { model: 'all' };
  if (rest === 'home') return { model: 'home' };
  if (rest === 'redirect') return { model: 'redirect' };
  const [model, key = ''] = [rest.slice(0, rest.indexOf(':')), rest.slice(rest.indexOf(':') + 1)];
  if (model === 'post') {
    if (key === '*') return { model: 'post' };
    const [documentId = '', slug = '', ...more] = key.split('/');
    if (more.length > 0 || (!documentId && !slug)) return null;
    if ((documentId && !DOCUMENT_ID.test(documentId)) || (slug && !SLUG_PATTERN.test(slug))) return null;
    return { model: 'post', ...(documentId ? { documentId } : {}), ...(slug ? { slug } : {}) };
  }
  if (model === 'legal-page') {
    if (key === '*') return { model: 'legal-page' };
    const page = LEGAL_PAGES.find((p): p is LegalPageKey => p === key);
    return page ? { model: 'legal-page', page } : null;
  }
  if (model === 'branding') {
    if (key === '*') return { model: 'branding' };
    return BRANDING_USER.test(key) ? { model: 'branding', userName: key } : null;
  }
  return null;
}

export type CmsCaches = {
  content?: Pick<StrapiContent, 'purge'> | undefined;
  branding?: { forget(userName?: string): void } | undefined;
};

/** Applies a change to this instance's caches. */
export function applyChange(change: CmsChange, caches: CmsCaches): void {
  if (change.model === 'branding') caches.branding?.forget(change.userName);
  else caches.content?.purge(change);
  if (change.model === 'all') caches.branding?.forget();
}

/** Every instance listens: each `cms:` topic makes its own caches stale. */
export function listenForCmsChanges(changes: Pick<ChangeFeed, 'subscribe'>, caches: CmsCaches, logger: Logger): void {
  changes.subscribe(CMS_TOPIC_PREFIX, (topic) => {
    const change = changeOfTopic(topic);
    if (!change) return logger.warn({ topic }, 'CMS change: not a topic this site knows; ignored');
    applyChange(change, caches);
    logger.debug({ topic }, 'CMS change: caches made stale');
  });
}
