// The site search as a domain: the public content's documents indexed in the site's database
// (SQLite FTS5, or PostgreSQL's full-text search; docs/decisions/061), kept in step with the
// content when it loads and whenever the CMS says it changed (every instance hears it), and the
// search the blog's ?q= and /search ask.
import type { Logger } from '../base/logger.ts';
import type { ContentSource } from '../content/source.ts';
import type { ChangeFeed } from '../db/changes.ts';
import type { Db } from '../db/index.ts';
import { CMS_TOPIC_PREFIX, changeOfTopic } from '../cms/invalidation.ts';
import type { SearchSource } from './documents.ts';
import { postgresSearch } from './engine-postgres.ts';
import { sqliteSearch } from './engine-sqlite.ts';
import { createIndexer } from './indexer.ts';
import { createSearch } from './service.ts';
import { caseStudySource, postSource, practiceSource } from './sources.ts';

export type SearchModuleDeps = {
  db: Db;
  content: ContentSource;
  logger: Logger;
  /** The content is a CMS's: its posts' updatedAt changes with every edit (server/search/sources.ts). */
  fromCms: boolean;
  /** More kinds of document (practices, pages), beside the posts and case studies. */
  sources?: readonly SearchSource[];
};

export function searchModule({ db, content, logger, fromCms, sources = [] }: SearchModuleDeps) {
  const engine = db.engine === 'postgres' ? postgresSearch(db) : sqliteSearch(db);
  const indexer = createIndexer({
    engine,
    sources: [postSource(content, { trustUpdated: fromCms }), caseStudySource(content), practiceSource(content), ...sources],
    logger,
  });
  const firstIndex = indexer.reindex();
  return {
    ...createSearch(engine, firstIndex),
    reindex: indexer.reindex,
    /** Resolves when no run is going on (tests; shutdown). */
    idle: indexer.idle,
    /**
     * A change in the CMS reindexes, after the CMS's caches were made stale (their listener was
     * subscribed first, server/boot/data.ts): only what changed is written.
     */
    subscribe(changes: Pick<ChangeFeed, 'subscribe'>) {
      changes.subscribe(CMS_TOPIC_PREFIX, (topic) => {
        if (changeOfTopic(topic)?.model !== 'branding') void indexer.reindex();
      });
    },
  };
}

export type SearchModule = ReturnType<typeof searchModule>;
