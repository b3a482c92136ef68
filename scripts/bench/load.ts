// The load generator, run by run.ts as its own process (pinned to the other core where taskset
// exists): autocannon against one URL, then one JSON line on stdout with the figures and the
// generator's own CPU use (to tell when the generator, not the server, is the limit).
// Usage: node scripts/bench/load.ts '{"url":"http://127.0.0.1:3000/es","connections":50,"seconds":10,"headers":{}}'
import autocannon from 'autocannon';

export type LoadOptions = { url: string; connections: number; seconds: number; headers: Record<string, string> };

export type LoadResult = {
  url: string;
  seconds: number;
  requests: number;
  reqPerSec: number;
  bytesPerReq: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** CPU time of this process ÷ wall time (1 = one core busy). */
  generatorCpu: number;
};

const options = JSON.parse(process.argv[2] ?? '{}') as LoadOptions;
const cpuBefore = process.cpuUsage();
const started = performance.now();
const result = await autocannon({
  url: options.url,
  connections: options.connections,
  duration: options.seconds,
  pipelining: 1,
  headers: options.headers,
  timeout: 10,
});
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
const statusCodes: Record<string, number> = {};
for (const [code, count] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = count.count ?? 0;
const requests = result.requests.total;
const out: LoadResult = {
  url: options.url,
  seconds: result.duration,
  requests,
  reqPerSec: requests / result.duration,
  bytesPerReq: requests ? Math.round(result.throughput.total / requests) : 0,
  latencyMs: {
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    mean: result.latency.mean,
  },
  errors: result.errors,
  timeouts: result.timeouts,
  non2xx: result.non2xx,
  statusCodes,
  generatorCpu: (cpu.user + cpu.system) / 1000 / wallMs,
};
process.stdout.write(JSON.stringify(out) + '\n');
