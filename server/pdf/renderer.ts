// Makes the PDF documents off the event loop, one at a time. pdfmake lays a document out in one
// synchronous run that cannot be split or paused (no yielding between pages): a report of 50
// long messages held the loop for seconds and /healthz with it. So the layout runs in one worker
// thread per process (server/pdf/worker.ts), jobs wait in a short queue in front of it, and
// when the queue is full a request is refused at once (503 with Retry-After) instead of piling
// up work. The queue is fair (server/pdf/fair-queue.ts): one user has at most `perUser` jobs in
// it (waiting or being laid out; 429 beyond), the next job is the oldest of the user served least
// recently, and a full queue makes room for a newcomer at the expense of whoever holds the most
// of it, and for an administrator at the expense of anyone else (docs/decisions/028, 056). A thread
// that dies (out of memory, a bug) or runs over its time is replaced on the next job; the
// server's own heap never holds a layout.
import type { Resource } from 'i18next';
import { Worker } from 'node:worker_threads';
import { projectI18n, resourcesOf } from '../i18n/index.ts';
import { PDF_NAMESPACES } from './i18n.ts';
import { createFairQueue, type Owner } from './fair-queue.ts';
import type { PdfJob } from './jobs.ts';
import type { JobRequest, JobResult } from './worker.ts';

/**
 * From the sources (tests, scripts) this is server/pdf/renderer.ts and the worker is worker.ts
 * beside it, which Node runs by stripping its types; in the build both are bundled, the worker
 * as dist/server/pdf-worker.js beside the server's bundle (scripts/build.ts).
 */
export const PDF_WORKER_URL: URL = import.meta.url.endsWith('.ts')
  ? new URL('./worker.ts', import.meta.url)
  : new URL('./pdf-worker.js', import.meta.url);

/** Requests that may wait while a document is being made; one more is refused (503). */
export const MAX_WAITING_DOCUMENTS = 3;
/** What the 503 asks a client to wait: about one large report's layout. */
export const BUSY_RETRY_AFTER_SECONDS = 5;
/** Jobs one user may have waiting or being laid out (PDF_JOBS_PER_USER); one more is refused (429). */
export const JOBS_PER_USER = 2;
/** A job running longer than this is abandoned and its thread replaced (the largest report takes a few seconds). */
const JOB_TIMEOUT_MS = 60_000;
/** An idle layout thread is stopped after this long: it holds pdfmake and the fonts, tens of MB. */
const IDLE_MS = 60_000;
/**
 * The layout thread's heap, as the server's (`--max-old-space-size=128` in `npm start`). Node
 * lets that flag win over this when it is given; this holds where it is not (tests, scripts).
 */
const LAYOUT_HEAP_MB = 128;

/** Refused because MAX_WAITING_DOCUMENTS requests already wait: answer 503 with Retry-After. */
export class PdfBusyError extends Error {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super(`Too many documents are being made: try again in ${retryAfterSeconds} seconds`);
    this.name = 'PdfBusyError';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Refused because the user already has their share of the queue: answer 429 with Retry-After. */
export class PdfShareError extends Error {
  readonly retryAfterSeconds: number;
  constructor(perUser: number, retryAfterSeconds: number) {
    super(`You have ${perUser} documents being made already: try again in ${retryAfterSeconds} seconds, once one is done`);
    this.name = 'PdfShareError';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export type PdfRendererOptions = {
  maxWaiting?: number;
  /** Jobs one owner may have waiting or running (see JOBS_PER_USER). */
  perUser?: number;
  retryAfterSeconds?: number;
  timeoutMs?: number;
  idleMs?: number;
  /** The thread's heap in MB (tests: a small one to run out of); see LAYOUT_HEAP_MB. */
  heapMb?: number;
  workerUrl?: URL;
  /**
   * The documents' words (PDF_NAMESPACES of every language), handed to each layout thread as it
   * starts so that it reads no file; by default the project's (projectI18n).
   */
  resources?: Resource;
};

/** What a layout thread is started with (worker.ts reads it). */
export type PdfWorkerData = { resources: Resource };

export type RenderOptions = {
  /** Whose job it is (their user name): their share of the queue. Without one a job counts for nobody's share. */
  owner?: string;
  /** An administrator's: in a full queue it takes the place of a waiting job of someone who is not one. */
  staff?: boolean;
  /** Aborted when the client has gone: the job stops waiting. */
  signal?: AbortSignal;
};

export type PdfRenderer = {
  /**
   * The job's PDF; rejects with PdfShareError when its owner has their share of the queue, with
   * PdfBusyError when the queue is full (or, while waiting, when a fairer claim took its place),
   * with the signal's reason when aborted while waiting.
   */
  render(job: PdfJob, options?: RenderOptions): Promise<Buffer>;
  /** What is going on, for tests and logs. */
  state(): { running: boolean; waiting: number; thread: boolean };
  /** Stops the thread and refuses what waits (graceful shutdown). */
  close(): Promise<void>;
};

type Pending = {
  job: PdfJob;
  owner: Owner;
  staff: boolean;
  resolve: (pdf: Buffer) => void;
  reject: (error: unknown) => void;
  signal: AbortSignal | undefined;
};
type Running = Pending & { id: number; timer: NodeJS.Timeout };

export function pdfRenderer(options: PdfRendererOptions = {}): PdfRenderer {
  const maxWaiting = options.maxWaiting ?? MAX_WAITING_DOCUMENTS;
  const perUser = options.perUser ?? JOBS_PER_USER;
  const retryAfterSeconds = options.retryAfterSeconds ?? BUSY_RETRY_AFTER_SECONDS;
  const timeoutMs = options.timeoutMs ?? JOB_TIMEOUT_MS;
  const idleMs = options.idleMs ?? IDLE_MS;
  const workerUrl = options.workerUrl ?? PDF_WORKER_URL;
  const heapMb = options.heapMb ?? LAYOUT_HEAP_MB;
  const workerData: PdfWorkerData = { resources: options.resources ?? resourcesOf(projectI18n(), PDF_NAMESPACES) };
  const queue = createFairQueue<Pending>({ maxWaiting, perOwner: perUser });
  let running: Running | null = null;
  let worker: Worker | null = null;
  let idleTimer: NodeJS.Timeout | null = null;
  let lastId = 0;
  let closed = false;

  function startWorker(): Worker {
    const thread = new Worker(workerUrl, { name: 'pdf-layout', workerData, resourceLimits: { maxOldGenerationSizeMb: heapMb } });
    // An idle thread must not keep the process alive (a request in progress does anyway).
    thread.unref();
    thread.on('message', (result: JobResult) => {
      if (thread !== worker || !running || result.id !== running.id) return;
      if (result.ok) settle(null, Buffer.from(result.pdf.buffer, result.pdf.byteOffset, result.pdf.byteLength));
      else settle(new Error(`The PDF could not be laid out: ${result.error}`));
    });
    // 'error' (an uncaught error, ERR_WORKER_OUT_OF_MEMORY) is followed by 'exit': the first one counts.
    thread.on('error', (error) => lost(thread, error));
    thread.on('exit', (code) => lost(thread, new Error(`The PDF layout thread stopped with exit code ${code}`)));
    return thread;
  }

  /** The thread is gone: the job it had fails, the next job starts a new thread. */
  function lost(thread: Worker, error: Error) {
    if (thread !== worker) return;
    worker = null;
    if (running) settle(error);
    else next();
  }

  function settle(error: Error | null, pdf?: Buffer) {
    const done = running;
    if (!done) return;
    clearTimeout(done.timer);
    running = null;
    queue.release(done.owner);
    if (error) done.reject(error);
    else done.resolve(pdf!);
    next();
  }

  function next() {
    if (running || closed) return;
    const pending = queue.take();
    if (!pending) {
      if (worker && !idleTimer) {
        idleTimer = setTimeout(() => {
          idleTimer = null;
          const thread = worker;
          worker = null;
          void thread?.terminate();
        }, idleMs);
        idleTimer.unref();
      }
      return;
    }
    if (idleTimer) {
      clearTimeout(idleTimer);
      idleTimer = null;
    }
    let thread: Worker;
    try {
      thread = worker ??= startWorker();
    } catch (error) {
      // No thread (the worker file missing from a broken deploy): this job fails, not the caller of next().
      queue.release(pending.owner);
      pending.reject(error);
      next();
      return;
    }
    const id = ++lastId;
    const timer = setTimeout(() => {
      // pdfmake cannot be interrupted: stop the whole thread (and free its heap).
      worker = null;
      void thread.terminate();
      settle(new Error(`The PDF took longer than ${timeoutMs} ms to lay out and was abandoned`));
    }, timeoutMs);
    running = { ...pending, id, timer };
    try {
      const request: JobRequest = { id, job: pending.job };
      thread.postMessage(request);
    } catch (error) {
      // The job could not be copied to the thread (a value structured clone refuses): a bug of the caller.
      settle(error instanceof Error ? error : new Error(String(error)));
    }
  }

  return {
    render(job, { owner, staff = false, signal } = {}) {
      return new Promise<Buffer>((resolve, reject) => {
        if (closed) return reject(new Error('The PDF renderer is closed'));
        if (signal?.aborted) return reject(signal.reason);
        const pending: Pending = { job, owner: owner ?? Symbol('nobody'), staff, resolve, reject, signal };
        // The share first: a user over it is told so (429), whether or not the queue has room.
        const admission = queue.admit(pending, running !== null);
        if (!admission.admitted) {
          return reject(
            admission.refusal === 'share' ? new PdfShareError(perUser, retryAfterSeconds) : new PdfBusyError(retryAfterSeconds),
          );
        }
        // The job whose place this one took is told the queue is full, as if it had come now.
        admission.displaced?.reject(new PdfBusyError(retryAfterSeconds));
        // A request whose client has gone stops waiting and frees its place; once started, a
        // layout runs to its end (stopping it would mean restarting the thread).
        signal?.addEventListener(
          'abort',
          () => {
            if (queue.withdraw(pending)) reject(signal.reason);
          },
          { once: true },
        );
        next();
      });
    },
    state() {
      return { running: running !== null, waiting: queue.size(), thread: worker !== null };
    },
    async close() {
      closed = true;
      if (idleTimer) clearTimeout(idleTimer);
      for (const pending of queue.drain()) pending.reject(new Error('The server is stopping'));
      const thread = worker;
      worker = null;
      if (running) settle(new Error('The server is stopping'));
      await thread?.terminate();
    },
  };
}
