// What the attacks on the built server watch while they run: the process's peak RSS over the
// attack alone, and /healthz asked every 50 ms throughout.
import { readFileSync, writeFileSync } from 'node:fs';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Peak RSS of the process from now on (the kernel's high-water mark, reset; else sampled every 20 ms), and where it started. */
export function watchPeakRss(pid: number): () => { start: number; peak: number } {
  const status = () => readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status())?.[1]) / 1024;
  let reset = true;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    reset = false;
  }
  const start = field('VmRSS');
  let sampled = start;
  const timer = setInterval(() => {
    try {
      sampled = Math.max(sampled, field('VmRSS'));
    } catch {
      // The process is gone: the test says so.
    }
  }, 20);
  return () => {
    clearInterval(timer);
    return { start, peak: reset ? field('VmHWM') : sampled };
  };
}

/** Asks /healthz every 50 ms until stopped: the slowest answer and the failures. */
export function pollHealth(url: string) {
  let slowest = 0;
  let failures = 0;
  let polling = true;
  const done = (async () => {
    while (polling) {
      const started = performance.now();
      try {
        const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) });
        await res.arrayBuffer();
        if (!res.ok) failures++;
      } catch {
        failures++;
      }
      slowest = Math.max(slowest, performance.now() - started);
      await sleep(50);
    }
  })();
  return async () => {
    polling = false;
    await done;
    return { slowest, failures };
  };
}
