// The layout thread: pdfmake lays a document out in one synchronous run (seconds for a large
// report) that cannot be split, so it runs here instead of on the server's event loop. One job
// at a time (server/pdf/renderer.ts queues them); the PDF's bytes go back without a copy.
// Its words are the server's (workerData: the namespaces the documents read, as the server
// loaded them at start): one i18next instance over them for the thread's life, no file read.
import { parentPort, workerData } from 'node:worker_threads';
import { i18nFromResources } from '../i18n/index.ts';
import { setPdfI18n } from './i18n.ts';
import { renderJob, type PdfJob } from './jobs.ts';
import type { PdfWorkerData } from './renderer.ts';

export type JobRequest = { id: number; job: PdfJob };
export type JobResult = { id: number; ok: true; pdf: Uint8Array } | { id: number; ok: false; error: string };

const port = parentPort;
if (!port) throw new Error('server/pdf/worker.ts runs as a worker thread (see server/pdf/renderer.ts), not on its own');
const data: Partial<PdfWorkerData> | null = workerData;
if (!data?.resources) throw new Error("server/pdf/worker.ts needs the documents' words (workerData.resources, see server/pdf/renderer.ts)");
setPdfI18n(i18nFromResources(data.resources));

/** Lays the job out and answers; whatever goes wrong is this job's answer, the thread lives on. */
async function answer(id: number, job: PdfJob): Promise<void> {
  let result: JobResult;
  let transfer: ArrayBuffer[] = [];
  try {
    const buffer = await renderJob(job);
    // A small Buffer may sit in Node's shared pool: transfer only memory the PDF owns alone.
    const owned =
      buffer.byteOffset === 0 && buffer.byteLength === buffer.buffer.byteLength && buffer.buffer instanceof ArrayBuffer
        ? new Uint8Array(buffer.buffer)
        : new Uint8Array(buffer);
    result = { id, ok: true, pdf: owned };
    transfer = [owned.buffer as ArrayBuffer];
  } catch (error) {
    result = { id, ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  port!.postMessage(result, transfer);
}

port.on('message', ({ id, job }: JobRequest) => void answer(id, job));
