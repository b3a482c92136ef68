// Loaded with `--import` into the server process under attack (test/security/pdf-reports.test.ts),
// not part of the server: it measures the event loop's delays and the heap from inside. On
// SIGUSR2 it writes what it saw since the previous SIGUSR2 to LOOP_PROBE_FILE and starts over,
// so that a test can leave the start-up (module loading blocks the loop) out of its figures.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

const file = process.env.LOOP_PROBE_FILE;
if (file) {
  const delays = monitorEventLoopDelay({ resolution: 10 });
  delays.enable();
  let peakHeapUsed = 0;
  let samples = 0;
  // Sampled on the loop itself: a blocked loop samples nothing, which the delays show instead.
  setInterval(() => {
    peakHeapUsed = Math.max(peakHeapUsed, process.memoryUsage().heapUsed);
  }, 50).unref();
  process.on('SIGUSR2', () => {
    samples++;
    const report = {
      sample: samples,
      maxDelayMs: delays.max / 1e6,
      p99DelayMs: delays.percentile(99) / 1e6,
      meanDelayMs: delays.mean / 1e6,
      peakHeapUsedMb: peakHeapUsed / 1e6,
      heapLimitMb: getHeapStatistics().heap_size_limit / 1e6,
    };
    writeFileSync(file, JSON.stringify(report));
    delays.reset();
    peakHeapUsed = 0;
  });
}
