// What the attacks on the built server watch while they run: the process's peak RSS over the
// attack alone, and /healthz asked every 50 ms throughout (from a thread of its own).
import { readFileSync, writeFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { scaled } from '../helpers/time-scale.ts';

/** The process's RSS now and its high-water mark (since it started or the last reset), in MiB. */
export function rssOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1]) / 1024;
  return { rss: field('VmRSS'), hwm: field('VmHWM') };
}

/** Peak RSS of the process from now on (the kernel's high-water mark, reset; else sampled every 20 ms), and where it started. */
export function watchPeakRss(pid: number): () => { start: number; peak: number } {
  let reset = true;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    reset = false;
  }
  const start = rssOf(pid).rss;
  let sampled = start;
  const timer = setInterval(() => {
    try {
      sampled = Math.max(sampled, rssOf(pid).rss);
    } catch {
      // The process is gone: the test says so.
    }
  }, 20);
  return () => {
    clearInterval(timer);
    return { start, peak: reset ? rssOf(pid).hwm : sampled };
  };
}

/** One /healthz asked: when it was sent (Date.now()), how long its answer took, and whether it was a 200. */
export type HealthProbe = { at: number; ms: number; ok: boolean };

/**
 * The poller, in a thread of its own: what the test does meanwhile (making 10 MB uploads,
 * unzipping the answers) must not pass for the server's slowness.
 */
const POLLER = `
const { parentPort, workerData } = require('node:worker_threads');
let polling = true;
parentPort.once('message', () => (polling = false));
(async () => {
  while (polling) {
    const at = Date.now();
    const started = performance.now();
    let ok = false;
    try {
      const res = await fetch(workerData.url + '/healthz', { signal: AbortSignal.timeout(workerData.timeoutMs) });
      await res.arrayBuffer();
      ok = res.ok;
    } catch {}
    parentPort.postMessage({ at, ms: performance.now() - started, ok });
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  parentPort.postMessage('done');
})();
`;

/** Asks /healthz every 50 ms until stopped (each probe handed to `onProbe`): the slowest answer and the failures (no answer, or not a 200). */
export function pollHealth(url: string, onProbe?: (probe: HealthProbe) => void) {
  let slowest = 0;
  let failures = 0;
  const poller = new Worker(POLLER, { eval: true, workerData: { url, timeoutMs: scaled(5_000) } });
  const done = new Promise<void>((resolve, reject) => {
    poller.on('message', (message: HealthProbe | 'done') => {
      if (message === 'done') return resolve();
      if (!message.ok) failures++;
      slowest = Math.max(slowest, message.ms);
      onProbe?.(message);
    });
    poller.once('error', reject);
  });
  let stopped: Promise<{ slowest: number; failures: number }> | undefined;
  // Stopping twice (a test, then its file's clean-up) answers the same.
  return () =>
    (stopped ??= (async () => {
      poller.postMessage('stop');
      await done;
      await poller.terminate();
      return { slowest, failures };
    })());
}
