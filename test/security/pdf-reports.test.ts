// Attack: fill the inbox (any visitor can, through the contact form) and the user list until one
// admin report is more than the server can lay out. The contact-messages report laid out every
// message at once: 2,000 messages of 5,000 characters exhausted the 128 MB heap and the process
// died; 100 froze every request for seconds. Now a report is one page of 50 messages (500 users),
// laid out in a thread of its own, one at a time behind a short queue (503 beyond it), each user
// to their share of it (429 beyond: docs/decisions/028).
//
// The built server runs as production runs it (`npm start`'s Node flags, 128 MB heap) on a
// throw-away DATA_DIR filled with the worst case before it starts. While reports are being made,
// /healthz is asked every 20 ms; a probe loaded into the server (loop-probe.ts) measures its event
// loop from inside.
import { userRow } from '../helpers/users.ts';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { databaseFile, openDatabase } from '../../server/db/index.ts';
import { pdfText } from '../pdf/pdf-text.ts';
import { launchServer } from '../../scripts/launch-server.ts';
import { scaled } from '../helpers/time-scale.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const MESSAGES = 2000;
const USERS = 5000;
const PASSWORD = 'attack-suite-admin-password';
/** /healthz p99 while reports are made: a 2-core CI machine under load answers in tens of ms. */
const HEALTHZ_P99_MS = 300;
/** The longest event-loop block in the server while reports are made (it was seconds per report). */
const LOOP_BLOCK_MS = 1000;
/** The whole process at its peak: the server's heap, the layout thread's, buffers and code. */
const PEAK_RSS_MB = 640;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Message bodies of 5,000 characters in the shapes that cost pdfmake most (words, lines, characters). */
function worstCaseBody(i: number): string {
  const shapes = [
    () => Array.from({ length: 1000 }, (_, k) => ['presupuesto', 'de', 'la', 'obra', 'quería', 'saber', 'más'][(i + k) % 7]).join(' '),
    () => 'a '.repeat(2500),
    () => 'línea\n'.repeat(900),
    () => '漢字'.repeat(2500),
    () => 'x'.repeat(5000),
    () => 'a\n'.repeat(60) + 'palabra '.repeat(700),
  ];
  return shapes[i % shapes.length]!().slice(0, 5000);
}

async function fill(dataDir: string, what: { messages: number; users: number }) {
  const db = await openDatabase({ file: databaseFile(dataDir) });
  try {
    const messages = Array.from({ length: what.messages }, (_, i) => {
      const at = new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString();
      return {
        name: `${'N'.repeat(90)} ${i}`,
        email: `${'e'.repeat(240)}${i}@example.com`,
        subject: `${'S '.repeat(70)}${i}`,
        message: worstCaseBody(i),
        locale: 'es',
        consent_at: at,
        read: 0,
        notify_status: 'none',
        notify_attempts: 0,
        created_at: at,
      };
    });
    // Every cell as long as the report shows it (120 characters), in one-letter words.
    const users = Array.from({ length: what.users }, (_, i) =>
      userRow({
        user_name: `u${String(i).padStart(5, '0')}${' u'.repeat(55)}`,
        email: `${'m'.repeat(100)}${i}@example.com`,
        name: 'a '.repeat(60),
        last_name: 'b '.repeat(60),
        role: 'CONS',
      }),
    );
    await db.k.transaction().execute(async (trx) => {
      for (let i = 0; i < messages.length; i += 200)
        await trx
          .insertInto('contact_messages')
          .values(messages.slice(i, i + 200))
          .execute();
      for (let i = 0; i < users.length; i += 200)
        await trx
          .insertInto('users')
          .values(users.slice(i, i + 200))
          .execute();
    });
  } finally {
    await db.close();
  }
  const added = spawnSync(
    process.execPath,
    [
      join(ROOT, 'scripts', 'user.ts'),
      'add',
      '--userName',
      'root',
      '--password',
      PASSWORD,
      '--role',
      'ADMIN',
      '--name',
      'Rosa',
      '--lastName',
      'Admin',
    ],
    { env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' },
  );
  if (added.status !== 0) throw new Error(`user add failed: ${added.stderr}`);
}

type Server = { url: string; child: ChildProcess; dataDir: string; probeFile: string; output: () => string };

/** A server of its own for each attack, so that one that falls (as before the fix) does not fail the other. */
async function start(what: { messages: number; users: number }): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pdf-attack-'));
  const probeFile = join(dataDir, 'loop-probe.json');
  await fill(dataDir, what);
  // The probe goes in after production's own flags, before the entry (dist/server/main.js).
  const probe = pathToFileURL(join(import.meta.dirname, 'loop-probe.ts')).href;
  const server = await launchServer({
    dataDir,
    nodeArgs: ['--import', probe],
    env: { LOOP_PROBE_FILE: probeFile },
    startTimeoutMs: scaled(20_000),
  });
  return { url: server.url, child: server.child, dataDir, probeFile, output: server.output };
}

/** The admin's session cookie, through the login form as a browser sends it. */
async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { Origin: url, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ identifier: 'root', password: PASSWORD }),
  });
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
  if (!cookies.some((c) => c.startsWith('auth._token.local='))) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return cookies.join('; ');
}

/** What the probe in the server saw since the last call (the first call covers the start-up). */
async function probe(
  server: Server,
): Promise<{ sample: number; maxDelayMs: number; p99DelayMs: number; peakHeapUsedMb: number; heapLimitMb: number }> {
  const before = existsSync(server.probeFile) ? (JSON.parse(readFileSync(server.probeFile, 'utf8')) as { sample: number }).sample : 0;
  server.child.kill('SIGUSR2');
  for (let i = 0; i < 100; i++) {
    await sleep(20);
    if (!existsSync(server.probeFile)) continue;
    const report = JSON.parse(readFileSync(server.probeFile, 'utf8'));
    if (report.sample > before) return report;
  }
  throw new Error('The probe in the server did not answer');
}

/** Asks /healthz every 20 ms until stopped; the latencies of all answers. */
function pollHealth(url: string) {
  const latencies: number[] = [];
  let failures = 0;
  let polling = true;
  const done = (async () => {
    while (polling) {
      const started = performance.now();
      try {
        const res = await fetch(`${url}/healthz`);
        await res.arrayBuffer();
        if (!res.ok) failures++;
      } catch {
        failures++;
      }
      latencies.push(performance.now() - started);
      await sleep(20);
    }
  })();
  return {
    async stop() {
      polling = false;
      await done;
      const sorted = [...latencies].sort((a, b) => a - b);
      const p99 = sorted[Math.max(0, Math.ceil(sorted.length * 0.99) - 1)] ?? Number.NaN;
      return { samples: sorted.length, failures, p99, max: sorted.at(-1) ?? Number.NaN, median: sorted[Math.floor(sorted.length / 2)]! };
    },
  };
}

type Answer = { path: string; status: number; retryAfter: string | null; body: Buffer; ms: number };

async function download(server: Server, cookie: string, path: string): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(`${server.url}${path}`, { headers: { Cookie: cookie } });
  const body = Buffer.from(await res.arrayBuffer());
  return { path, status: res.status, retryAfter: res.headers.get('retry-after'), body, ms: performance.now() - started };
}

/** Peak resident memory of the whole process (server and layout thread) so far, in MB. */
function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/**
 * The largest allowed report alone, then six at once (the admin's share of the queue laid out
 * and waiting, the rest refused with 429 — or 503 should the queue be full), with /healthz
 * polled throughout.
 */
async function attack(server: Server, cookie: string, paths: { largest: string; parallel: string[] }) {
  await probe(server); // leaves the start-up and sign-in out of the figures
  const health = pollHealth(server.url);
  await sleep(200);
  const alone = await download(server, cookie, paths.largest);
  const together = await Promise.all(paths.parallel.map((path) => download(server, cookie, path)));
  await sleep(200);
  const healthz = await health.stop();
  const loop = await probe(server);
  return { answers: [alone, ...together], together, healthz, loop };
}

function expectValidAnswers(answers: Answer[]) {
  for (const answer of answers) {
    if (answer.status === 503) {
      expect(answer.retryAfter, answer.path).toBe('5');
      expect(answer.body.toString(), answer.path).toBe('Too many documents are being made: try again in 5 seconds');
      continue;
    }
    // One admin asking for them all: past their share of the queue (PDF_JOBS_PER_USER, 2).
    if (answer.status === 429) {
      expect(answer.retryAfter, answer.path).toBe('5');
      expect(answer.body.toString(), answer.path).toBe('You have 2 documents being made already: try again in 5 seconds, once one is done');
      continue;
    }
    expect(answer.status, `${answer.path}: ${answer.body.toString().slice(0, 200)}`).toBe(200);
    expect(answer.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(answer.body.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
  }
}

let server: Server | undefined;

async function stop() {
  const running = server;
  server = undefined;
  if (!running) return;
  if (running.child.exitCode === null && running.child.signalCode === null) {
    const exited = new Promise((resolve) => running.child.once('exit', resolve));
    running.child.kill('SIGTERM');
    await Promise.race([exited, sleep(scaled(10_000))]);
    if (running.child.exitCode === null) running.child.kill('SIGKILL');
  }
  rmSync(running.dataDir, { recursive: true, force: true });
}

afterEach(stop, scaled(30_000));

test(
  'an inbox of 2,000 messages of 5,000 characters neither kills the server nor freezes it: reports are pages of 50, laid out off the event loop',
  async () => {
    // Kept in `server` too, for afterEach, should the test fail half-way.
    const target = (server = await start({ messages: MESSAGES, users: 0 }));
    const cookie = await signIn(target.url);
    const result = await attack(target, cookie, {
      largest: '/documents/contact-messages.pdf',
      parallel: [1, 2, 3, 4, 5, 6].map((page) => `/en/documents/contact-messages.pdf?page=${page}`),
    });
    const rss = peakRssMb(target.child.pid!);
    console.log(
      `contact-messages: /healthz p99 ${result.healthz.p99.toFixed(0)} ms (max ${result.healthz.max.toFixed(0)}, median ${result.healthz.median.toFixed(0)}, ${result.healthz.samples} samples); ` +
        `event loop max block ${result.loop.maxDelayMs.toFixed(0)} ms; server heap peak ${result.loop.peakHeapUsedMb.toFixed(0)} MB of ${result.loop.heapLimitMb.toFixed(0)}; ` +
        `process peak RSS ${rss.toFixed(0)} MB; answers ${result.answers.map((a) => `${a.status} in ${(a.ms / 1000).toFixed(1)} s`).join(', ')}`,
    );

    expect(target.child.exitCode, target.output()).toBeNull();
    expect((await fetch(`${target.url}/healthz`)).ok).toBe(true);
    expectValidAnswers(result.answers);
    expect(result.answers[0]!.status).toBe(200);
    // The admin's share of the queue (one laid out, one waiting) is always served; the rest is refused at once.
    expect(result.together.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(2);
    // The first report covers the first page of the whole inbox and says so.
    expect(pdfText(result.answers[0]!.body)).toContain('Mensajes 1–50 de 2.000 · 2.000 sin leer');
    // Each page made covers its own 50 messages.
    result.together.forEach((answer, i) => {
      if (answer.status === 200) expect(pdfText(answer.body)).toContain(`Messages ${i * 50 + 1}–${(i + 1) * 50} of 2,000`);
    });
    expect(result.healthz.failures).toBe(0);
    expect(result.healthz.p99).toBeLessThan(HEALTHZ_P99_MS);
    expect(result.loop.maxDelayMs).toBeLessThan(LOOP_BLOCK_MS);
    expect(rss).toBeLessThan(PEAK_RSS_MB);
  },
  scaled(240_000),
);

test(
  'a list of 5,000 users neither kills the server nor freezes it: reports are pages of 500, laid out off the event loop',
  async () => {
    const target = (server = await start({ messages: 0, users: USERS }));
    const cookie = await signIn(target.url);
    const result = await attack(target, cookie, {
      largest: '/en/documents/users.pdf',
      parallel: [1, 2, 3, 4, 5, 6].map((page) => `/documents/users.pdf?page=${page}`),
    });
    const rss = peakRssMb(target.child.pid!);
    console.log(
      `users: /healthz p99 ${result.healthz.p99.toFixed(0)} ms (max ${result.healthz.max.toFixed(0)}, median ${result.healthz.median.toFixed(0)}, ${result.healthz.samples} samples); ` +
        `event loop max block ${result.loop.maxDelayMs.toFixed(0)} ms; server heap peak ${result.loop.peakHeapUsedMb.toFixed(0)} MB of ${result.loop.heapLimitMb.toFixed(0)}; ` +
        `process peak RSS ${rss.toFixed(0)} MB; answers ${result.answers.map((a) => `${a.status} in ${(a.ms / 1000).toFixed(1)} s`).join(', ')}`,
    );

    expect(target.child.exitCode, target.output()).toBeNull();
    expect((await fetch(`${target.url}/healthz`)).ok).toBe(true);
    expectValidAnswers(result.answers);
    expect(result.answers[0]!.status).toBe(200);
    expect(result.together.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(2);
    expect(pdfText(result.answers[0]!.body)).toContain('Users 1–500 of 5,001');
    // Each page made covers its own 500 users (Spanish: the paths have no /en).
    const parts = ['1–500', '501–1.000', '1.001–1.500', '1.501–2.000', '2.001–2.500', '2.501–3.000'];
    result.together.forEach((answer, i) => {
      if (answer.status === 200) expect(pdfText(answer.body)).toContain(`Usuarios ${parts[i]} de 5.001`);
    });
    expect(result.healthz.failures).toBe(0);
    expect(result.healthz.p99).toBeLessThan(HEALTHZ_P99_MS);
    expect(result.loop.maxDelayMs).toBeLessThan(LOOP_BLOCK_MS);
    expect(rss).toBeLessThan(PEAK_RSS_MB);
  },
  scaled(240_000),
);
