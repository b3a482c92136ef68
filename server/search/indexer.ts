// Keeping the index in step with the content: each source is read through, one document at a
// time; a document whose digest (or, when the source gives one, version) is as indexed is not
// written, a new or changed one is, and one the source no longer has is removed. A restart with
// unchanged content writes nothing. Runs never overlap: asked again while one runs, one more run
// follows it (however often it was asked meanwhile).
import type { Logger } from '../base/logger.ts';
import { documentDigest, documentKey, type SearchSource } from './documents.ts';
import type { SearchEngine } from './engine.ts';

export type IndexRun = { written: number; unchanged: number; removed: number; failed: number };

async function indexSource(engine: SearchEngine, source: SearchSource, logger: Logger): Promise<IndexRun> {
  const run: IndexRun = { written: 0, unchanged: 0, removed: 0, failed: 0 };
  const indexed = await engine.indexed(source.kind);
  const seen = new Set<string>();
  for await (const entry of source.entries()) {
    const key = documentKey(entry);
    if (seen.has(key)) continue;
    seen.add(key);
    const known = indexed.get(key);
    if (known && entry.version !== null && known.version === entry.version) {
      run.unchanged++;
      continue;
    }
    try {
      const doc = await entry.read();
      if (!doc) {
        seen.delete(key);
        continue;
      }
      const digest = documentDigest(doc);
      if (known?.digest === digest && known.version === entry.version) run.unchanged++;
      else {
        await engine.write(doc, { digest, version: entry.version });
        run.written++;
      }
    } catch (error) {
      // Kept as it was indexed: one document that cannot be read now does not stop the others.
      run.failed++;
      logger.warn({ err: error, key }, 'search: a document could not be indexed; it keeps what was indexed of it');
    }
  }
  const gone = [...indexed.keys()].filter((key) => !seen.has(key));
  await engine.remove(gone);
  run.removed = gone.length;
  return run;
}

export function createIndexer({ engine, sources, logger }: { engine: SearchEngine; sources: readonly SearchSource[]; logger: Logger }) {
  /** Every source once; a source that cannot be listed keeps its index as it was. */
  async function runAll(): Promise<void> {
    for (const source of sources) {
      const started = Date.now();
      try {
        const run = await indexSource(engine, source, logger);
        logger.info({ kind: source.kind, ...run, ms: Date.now() - started }, 'search: index brought up to date');
      } catch (error) {
        logger.warn({ err: error, kind: source.kind }, 'search: the documents could not be read; the index keeps what it had');
      }
    }
  }

  let tail: Promise<void> = Promise.resolve();
  let queued: Promise<void> | null = null;
  /** The index brought up to date with the sources as they are now (resolves when it is). */
  function reindex(): Promise<void> {
    if (queued) return queued;
    const run = tail.then(() => {
      queued = null;
      return runAll();
    });
    queued = run;
    tail = run;
    return run;
  }

  return { reindex, idle: () => tail };
}
