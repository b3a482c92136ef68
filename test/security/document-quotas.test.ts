// Filling the database with documents (docs/decisions/031), written as the attack, against the built server as production runs it
// (`npm start`'s Node flags: a 128 MB heap), on SQLite and on PostgreSQL: one account uploaded
// 10 MB documents without end (6 GB an hour), nothing held its bytes and nothing could delete
// one. Now its documents count against PROJECT_DOCUMENTS_QUOTA_MB_PER_USER and each project's
// against PROJECT_DOCUMENTS_QUOTA_MB_PER_PROJECT (docs/decisions/031): the account uploads far
// past them, four at a time, through the API and the page's form; the quota holds to the byte,
// every upload answered 201 is there byte for byte, the process lives with the same pid and
// /healthz answers throughout; a deletion gives the room back.
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { launchServer, type LaunchedServer } from '../../scripts/launch-server.ts';
import type { Db } from '../../server/db/index.ts';
import { createUser } from '../../server/users/users.ts';
import {
  bigPdf,
  digest,
  DOCUMENT_BYTES,
  ENGINE,
  insertProject,
  serverDatabase,
  signInCookie,
  signInToken,
  storedDigests,
  uploadDocument,
  type Upload,
} from './built-server.ts';
import { pollHealth, watchPeakRss } from './process-watch.ts';
import { scaled } from '../helpers/time-scale.ts';

const PASSWORD = 'quota-attack-password';
const MiB = 1024 * 1024;
const QUOTA_MB = { perUser: 25, perProject: 15 };
/** Uploads tried: 40 of 10 MB, 16 times the user's quota. */
const ATTEMPTS = 40;
const AT_ONCE = 4;
/** The whole process at its peak: four uploads of 10 MB in memory at once, each read whole before it is stored. */
const PEAK_RSS_MIB = 256;
const HEALTHZ_MAX_MS = ENGINE === 'postgres' ? 2_000 : 1_000;

let running: { server: LaunchedServer; dataDir: string } | undefined;
afterEach(async () => {
  await running?.server.stop();
  if (running) rmSync(running.dataDir, { recursive: true, force: true });
  running = undefined;
}, scaled(30_000));

/** The attacker (a client) with two open projects, the server started on them, the attacker signed in. */
async function site() {
  const dataDir = mkdtempSync(join(tmpdir(), 'quota-attack-'));
  const { open, env } = await serverDatabase(dataDir);
  const db = await open();
  const projects: number[] = [];
  try {
    await createUser(db, { userName: 'hoarder', password: PASSWORD, role: 'CLI', name: 'Hal', lastName: 'Hoarder' });
    for (const title of ['First', 'Second']) {
      projects.push(await insertProject(db, { owner: 'hoarder', ownerName: 'Hal Hoarder', title, state: 'brief' }));
    }
  } finally {
    await db.close();
  }
  const server = await launchServer({
    dataDir,
    startTimeoutMs: scaled(20_000),
    env: {
      PROJECT_DOCUMENTS_QUOTA_MB_PER_USER: String(QUOTA_MB.perUser),
      PROJECT_DOCUMENTS_QUOTA_MB_PER_PROJECT: String(QUOTA_MB.perProject),
      // What holds here is the quota, not the rate.
      PROJECT_UPLOADS_PER_MINUTE: '1000',
      ...env,
    },
  });
  running = { server, dataDir };
  const token = await signInToken(server.url, 'hoarder', PASSWORD);
  const cookie = await signInCookie(server.url, 'hoarder', PASSWORD);
  return { ...server, projects, token, cookie, open };
}

type Site = Awaited<ReturnType<typeof site>>;

type Attempt = Upload & { attempt: number };

/** Attempt `n`: its own 10 MB PDF, to the first or second project, two through the API, then two through the page's form. */
async function upload(server: Site, attempt: number): Promise<Attempt> {
  const file = { bytes: bigPdf(attempt), name: `hoard-${attempt}.pdf`, type: 'application/pdf' };
  return { attempt, ...(await uploadDocument(server, server.projects[attempt % 2]!, file, attempt % 4 < 2 ? 'api' : 'page')) };
}

async function storedBytes(db: Db): Promise<{ user: number; perProject: number[] }> {
  const rows = await db.k.selectFrom('project_documents').select(['project_id', 'bytes']).execute();
  const perProject = new Map<number, number>();
  for (const row of rows) perProject.set(row.project_id, (perProject.get(row.project_id) ?? 0) + Number(row.bytes));
  return { user: rows.reduce((sum, row) => sum + Number(row.bytes), 0), perProject: [...perProject.values()] };
}

test(
  `one account uploading 10 MB documents far past its quota (${ATTEMPTS} × 10 MB, ${AT_ONCE} at once, API and page form): the quotas hold to the byte, every upload answered as stored is whole, the process lives within ${PEAK_RSS_MIB} MiB and /healthz answers (M1, ${ENGINE})`,
  async () => {
    const server = await site();
    const pid = server.pid;
    const peak = watchPeakRss(pid);
    const health = pollHealth(server.url);
    const started = performance.now();
    const answers: Attempt[] = [];
    for (let i = 0; i < ATTEMPTS; i += AT_ONCE) {
      answers.push(...(await Promise.all(Array.from({ length: AT_ONCE }, (_, k) => upload(server, i + k)))));
    }
    const seconds = (performance.now() - started) / 1000;
    const healthz = await health();
    const rss = peak();
    const stored = answers.filter((a) => a.stored);
    console.log(
      `M1 (${ENGINE}): ${ATTEMPTS} uploads of 10 MB in ${seconds.toFixed(1)} s, ${stored.length} stored; ` +
        `RSS ${rss.start.toFixed(0)} MiB at the start, ${rss.peak.toFixed(0)} MiB at the peak; slowest /healthz ${healthz.slowest.toFixed(0)} ms`,
    );
    expect(server.child.exitCode, server.output().slice(-3000)).toBeNull();
    expect(server.pid).toBe(pid);
    // Room for two in the user's 25 MB (one per project's 15 MB): the rest refused, each with its quota named.
    expect(stored).toHaveLength(2);
    for (const refused of answers.filter((a) => !a.stored)) {
      expect(refused.status).toBe(413);
      expect(['user_quota_exceeded', 'project_quota_exceeded']).toContain(refused.code);
    }
    const db = await server.open();
    try {
      const bytes = await storedBytes(db);
      expect(bytes.user).toBe(2 * DOCUMENT_BYTES);
      expect(bytes.user).toBeLessThanOrEqual(QUOTA_MB.perUser * MiB);
      for (const project of bytes.perProject) expect(project).toBeLessThanOrEqual(QUOTA_MB.perProject * MiB);
    } finally {
      await db.close();
    }
    // Nothing that was answered as stored is lost: each comes back byte for byte.
    expect(await storedDigests(server, server.projects)).toEqual(stored.map((a) => digest(bigPdf(a.attempt))).sort());
    expect(healthz.failures).toBe(0);
    expect(healthz.slowest).toBeLessThan(HEALTHZ_MAX_MS);
    expect(rss.peak).toBeLessThan(PEAK_RSS_MIB);

    // Deleting one gives its room back: the next upload is stored.
    const list = await fetch(`${server.url}/api/projects/${server.projects[0]}/documents`, {
      headers: { Authorization: `Bearer ${server.token}` },
    });
    const first = ((await list.json()) as { items: { id: number }[] }).items[0]!.id;
    const deleted = await fetch(`${server.url}/api/projects/${server.projects[0]}/documents/${first}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${server.token}`, Origin: server.url },
    });
    expect(deleted.status).toBe(204);
    expect((await upload(server, ATTEMPTS)).stored).toBe(true);
  },
  scaled(180_000),
);

test(
  `past the quota an upload is refused before its body is read: a client declaring 10 MB and sending nothing is answered 413 at once (M1, ${ENGINE})`,
  async () => {
    const server = await site();
    // The first project's 15 MB hold one document of 10 MB: 5 MB are left there.
    expect((await upload(server, 0)).stored).toBe(true);
    // The headers of a 10 MB upload, and not one byte of its body: only an answer given before reading it can arrive.
    const started = performance.now();
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        `${server.url}/api/projects/${server.projects[0]}/documents`,
        {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${server.token}`,
            Origin: server.url,
            'Content-Type': 'multipart/form-data; boundary=x',
            'Content-Length': String(DOCUMENT_BYTES),
          },
          timeout: scaled(5_000),
        },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => {
            resolve({ status: res.statusCode!, body });
            req.destroy();
          });
        },
      );
      req.on('timeout', () => reject(new Error('no answer without the body')));
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(answer.status).toBe(413);
    expect(performance.now() - started).toBeLessThan(1_000);
    const refusal = JSON.parse(answer.body) as { error: { code: string; message: string } };
    expect(refusal.error.code).toBe('project_quota_exceeded');
    expect(refusal.error.message).toMatch(/: 5242880 bytes \(5 MB\) are left$/);
    expect(server.child.exitCode).toBeNull();
  },
  scaled(120_000),
);
