// The layout thread: pdfmake lays a document out in one synchronous run (seconds for a large
// report) that cannot be split, so it runs here instead of on the server's event loop. One job
// at a time (server/pdf/renderer.ts queues them); the PDF's bytes go back without a copy.
import { parentPort } from 'node:worker_threads';
import { renderJob, type PdfJob } from './jobs.ts';

export type JobRequest = { id: number; job: PdfJob };
export type JobResult = { id: number; ok: true; pdf: Uint8Array } | { id: number; ok: false; error: string };

const port = parentPort;
if (!port) throw new Error('server/pdf/worker.ts runs as a worker thread (see server/pdf/renderer.ts), not on its own');

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
