// How every download leaves the server (docs/decisions/028): written a chunk at a time, the next
// chunk only once the client took the last one (back-pressure), so that a download costs a chunk
// of memory however large the file and however slow the client. A client that takes nothing
// for the stall deadline (DOWNLOAD_STALL_SECONDS) has its response ended: a socket that never
// reads must not hold the server's memory, nor its download slots, for as long as it likes. A
// download may also have a deadline for the whole of it (the data export's, whose slots are
// few: docs/decisions/056): a client that reads, but too slowly to be done by then, is ended too.
import type { Response } from 'express';
import { pipeline, type Writable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import { createGzip } from 'node:zlib';

/** The slice of a buffer written at a time (a document's stored chunk is as large). */
export const DOWNLOAD_CHUNK_BYTES = 256 * 1024;

/** The client took nothing for the stall deadline: its response was ended. */
export class DownloadStalledError extends Error {
  constructor(stallMs: number) {
    super(`The client took nothing for ${stallMs / 1000} seconds: the download was ended`);
    this.name = 'DownloadStalledError';
  }
}

/** The download was not done by its deadline (its client read too slowly): its response was ended. */
export class DownloadDeadlineError extends Error {
  constructor(deadlineMs: number) {
    super(`The download was not done within ${deadlineMs / 1000} seconds: it was ended`);
    this.name = 'DownloadDeadlineError';
  }
}

/** The client closed the connection before the download ended. */
export class ClientGoneError extends Error {
  constructor() {
    super('The client went away before the download ended');
    this.name = 'ClientGoneError';
  }
}

/** A download that ended because of its client, not of the server: logged as such, not as a failure. */
export function endedByClient(error: unknown): boolean {
  return error instanceof DownloadStalledError || error instanceof DownloadDeadlineError || error instanceof ClientGoneError;
}

export type DownloadOptions = {
  /** How long the client may take nothing before its response is ended. */
  stallMs: number;
  /** Gzip here (the client accepts it): the global compression() never sees a download. */
  gzip?: boolean;
  /** The whole download is done within `ms` of its start, as `now` counts (milliseconds), or ended. */
  deadline?: { ms: number; now: () => number };
};

export type DownloadWriter = {
  /** Resolves once the next chunk may follow; rejects when the client went away or stalled. */
  write(chunk: Buffer | string): Promise<void>;
  /** Ends the response; resolves once the client has it all (rejects as write does). */
  end(): Promise<void>;
  /** Ends the response abruptly: half a file must not pass for a whole one. */
  fail(error: Error): void;
};

/**
 * The response as a download: its headers (status, type, length, disposition) set by the
 * caller, sent now. `Cache-Control: no-transform` keeps the global compression() and any proxy
 * from rewriting it: compression() moves `res.on('drain')` listeners onto its gzip stream but
 * not `res.off`, and the listeners left there kept every chunk of the export (decision 028).
 */
export function downloadWriter(res: Response, options: DownloadOptions): DownloadWriter {
  const { stallMs } = options;
  const cacheControl = String(res.getHeader('Cache-Control') ?? '');
  if (!/\bno-transform\b/.test(cacheControl))
    res.setHeader('Cache-Control', cacheControl ? `${cacheControl}, no-transform` : 'no-transform');
  if (options.gzip) {
    res.setHeader('Content-Encoding', 'gzip');
    res.removeHeader('Content-Length');
  }
  // Decided here (headers sent): compression() lets the response through untouched from now on.
  res.flushHeaders();
  const gzip = options.gzip ? createGzip() : null;
  // The gzip stream into the response, with back-pressure; a response that closes early destroys it.
  if (gzip) pipeline(gzip, res, () => undefined);
  const target: Writable = gzip ?? res;
  const gone = () => res.closed && !res.writableFinished;
  const deadline = options.deadline;
  const deadlineAt = deadline ? deadline.now() + deadline.ms : Infinity;
  const left = () => (deadline ? deadlineAt - deadline.now() : Infinity);

  /** Ends the response: its deadline has passed. */
  function overdue(): DownloadDeadlineError {
    res.destroy();
    return new DownloadDeadlineError(deadline!.ms);
  }

  /**
   * Waits for `event` of `emitter`, at most the stall deadline (or what is left of the whole
   * download's), failing when the response closes first.
   */
  function progress(emitter: Writable, event: 'drain' | 'finish'): Promise<void> {
    if (gone()) return Promise.reject(new ClientGoneError());
    const wait = Math.max(0, Math.min(stallMs, left()));
    return new Promise((resolve, reject) => {
      const done = (error?: Error) => {
        clearTimeout(timer);
        emitter.off(event, onEvent);
        res.off('close', onClose);
        if (error) reject(error);
        else resolve();
      };
      const onEvent = () => done();
      const onClose = () => done(res.writableFinished ? undefined : new ClientGoneError());
      const timer = setTimeout(() => {
        if (wait < stallMs) return done(overdue());
        const stalled = new DownloadStalledError(stallMs);
        done(stalled);
        res.destroy();
      }, wait);
      emitter.on(event, onEvent);
      res.on('close', onClose);
    });
  }

  return {
    async write(chunk) {
      if (gone()) throw new ClientGoneError();
      if (left() <= 0) throw overdue();
      if (!target.write(chunk)) await progress(target, 'drain');
      // A turn of the event loop between two chunks: forty downloads into empty socket buffers
      // would otherwise read and write all their chunks in one turn, /healthz waiting seconds.
      else await setImmediate();
    },
    async end() {
      if (gone()) throw new ClientGoneError();
      target.end();
      if (!res.writableFinished) await progress(res, 'finish');
    },
    fail(error) {
      if (gzip) gzip.destroy(error);
      res.destroy(error);
    },
  };
}

/** Sends a file that is in memory already (a PDF just laid out) as a download, a slice at a time. */
export async function sendBuffer(res: Response, data: Buffer, options: DownloadOptions): Promise<void> {
  const out = downloadWriter(res, options);
  for (let offset = 0; offset < data.length; offset += DOWNLOAD_CHUNK_BYTES) {
    await out.write(data.subarray(offset, offset + DOWNLOAD_CHUNK_BYTES));
  }
  await out.end();
}

/**
 * Sends the chunks of `source` (read from the database as they are needed) as a download. The
 * first chunk is read before anything is sent: a store that fails at once is the caller's error
 * to answer (a 503 for a database that is down); one that fails half-way ends the response.
 */
export async function sendChunks(res: Response, source: AsyncIterable<Buffer>, options: DownloadOptions): Promise<void> {
  const chunks = source[Symbol.asyncIterator]();
  let next = await chunks.next();
  const out = downloadWriter(res, options);
  try {
    while (!next.done) {
      await out.write(next.value);
      next = await chunks.next();
    }
  } catch (error) {
    await chunks.return?.();
    if (!endedByClient(error)) out.fail(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
  await out.end();
}
