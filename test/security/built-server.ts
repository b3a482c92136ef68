// What the attacks on the built server (scripts/launch-server.ts) share: the engine of the run
// and the database the server is started on, filled straight before it starts; sign-ins over
// HTTP; GETs read to their end as bytes; connections that stop reading; project documents
// uploaded through the API or the project page's form and read back. The attacks themselves
// stay in their test files.
import { companyIdOf, settleCompanies } from '../../server/companies/companies.ts';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { expect, inject } from 'vitest';
import type { LaunchedServer } from '../../scripts/launch-server.ts';
import { databaseFile, openDatabase, type Db } from '../../server/db/index.ts';
import { chunksOf, storeDocumentChunks } from '../../server/projects/document-chunks.ts';
import { createUser } from '../../server/users/users.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { userRow } from '../helpers/users.ts';
import { scaled } from '../helpers/time-scale.ts';

/** The engine of the run: the `postgres` project of vitest.security.config.ts sets TEST_ENGINE. */
export const ENGINE: 'sqlite' | 'postgres' = process.env.TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The database a server in `dataDir` will run on: SQLite's file there, or a new database in the
 * run's PostgreSQL cluster. `open` gives the test its own connection (migrated: the real
 * schema); `env` is what the server is started with to use the same database.
 */
export async function serverDatabase(dataDir: string): Promise<{ open: () => Promise<Db>; env: Record<string, string> }> {
  const databaseUrl = ENGINE === 'postgres' ? await createTestDatabase(inject('postgresUrl')) : undefined;
  return {
    open: () => openDatabase(databaseUrl ? { url: databaseUrl, poolMax: 2 } : { file: databaseFile(dataDir) }),
    env: databaseUrl ? { DATABASE_URL: databaseUrl } : {},
  };
}

/** A sign-in through the login page's form, as a browser without JavaScript posts it (`headers` over those). */
export function postLogin(url: string, identifier: string, password: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { Origin: url, 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ identifier, password }),
  });
}

/** The cookie `name=value` an answer set (a non-empty one), or null. */
export function cookieOf(res: Response, name: string): string | null {
  return (
    res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .find((c) => c.startsWith(`${name}=`) && c !== `${name}=`) ?? null
  );
}

/** The session cookie (`auth._token.local=…`) of a sign-in through the login page's form; throws naming the user when refused. */
export async function signInCookie(url: string, identifier: string, password: string, headers: Record<string, string> = {}) {
  const res = await postLogin(url, identifier, password, headers);
  const cookie = cookieOf(res, 'auth._token.local');
  if (!cookie) throw new Error(`sign-in of ${identifier} failed: ${res.status}`);
  return cookie;
}

/** The Bearer token of a sign-in through POST /api/login; throws naming the user when refused. */
export async function signInToken(url: string, identifier: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: url },
    body: JSON.stringify({ identifier, password }),
  });
  const { token } = (await res.json()) as { token?: string };
  if (!token) throw new Error(`API sign-in of ${identifier} failed: ${res.status}`);
  return token;
}

export type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

/** A GET read to its end (or to the connection's end), with the raw bytes as they came. */
export function get(url: string, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      const end = () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) });
      res.on('end', end);
      res.on('aborted', end);
      res.on('error', end);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A connection that sends a GET and then reads nothing: a client that stalled. */
export function stalledGet(port: number, path: string, cookie: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.pause();
    socket.once('connect', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\nAccept-Encoding: identity\r\n\r\n`);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** Reads what a stalled connection was sent until the server ends it: the bytes, or -1 if it is still open after `ms` (scaled). */
export async function drain(socket: Socket, ms = 15_000): Promise<number> {
  let received = 0;
  socket.on('data', (chunk: Buffer) => (received += chunk.length));
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(received)));
  socket.resume();
  const result = await Promise.race([closed, sleep(scaled(ms)).then(() => -1)]);
  socket.destroy();
  return result;
}

/** The process's CPU time so far (user + system), in clock ticks. */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * Waits until the server is quiet — stalled downloads waiting for their clients, not reading the
 * store (PostgreSQL hands out a few tens of MB a second on a small machine).
 */
export async function untilQuiet(pid: number, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  let quiet = 0;
  let last = cpuTicks(pid);
  while (quiet < 2 && Date.now() - started < scaled(timeoutMs)) {
    await sleep(500);
    const now = cpuTicks(pid);
    // Under 10% of a core (the /healthz polls) for two half-seconds in a row.
    quiet = now - last <= 5 ? quiet + 1 : 0;
    last = now;
  }
}

/** The server process is running, and is the one started (`pid`): it never died and came back. */
export function expectAlive(server: LaunchedServer, pid = server.pid) {
  expect(server.child.exitCode, server.output().slice(-3000)).toBeNull();
  expect(server.child.signalCode).toBeNull();
  expect(server.child.pid).toBe(pid);
}

/** A client's project, written straight into the database: its id. */
export async function insertProject(db: Db, project: { owner: string; ownerName: string; title: string; state: 'brief' | 'active' }) {
  // Its owner's company owns it (users written straight into the table get theirs here).
  await settleCompanies(db);
  const at = new Date().toISOString();
  const row = await db.k
    .insertInto('projects')
    .values({
      title: project.title,
      description: 'Somewhere to work together.',
      practice: 'data',
      state: project.state,
      owner: project.owner,
      owner_name: project.ownerName,
      owner_role: 'CLI',
      company_id: companyIdOf(db.k, project.owner),
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/* The project of the download attacks (H1, M2) ------------------------------------------- */

/** The largest document there is: 10 MB. */
export const DOCUMENT_BYTES = 10 * 1024 * 1024;

/** The owner of the shared project and the nine experts working on it: ten users. */
export const SHARED_PROJECT_USERS = ['owner', ...Array.from({ length: 9 }, (_, i) => `expert${i + 1}`)];
/** The history that makes each of their data exports 9 MB: 1,800 events of 5,000 characters. */
export const SHARED_HISTORY = { events: 1_800, chars: 5_000 };

/**
 * The project ten people share, written straight into the database: its owner (a client) and
 * nine experts, all signing in with `password` (one hash: scrypt once); with `history`, the
 * events that make each one's data export 9 MB; with `document`, a 10 MB PDF.
 */
export async function seedSharedProject(db: Db, options: { password: string; history: boolean; document: boolean }) {
  const owner = await createUser(db, { userName: 'owner', password: options.password, role: 'CLI', name: 'Olivia', lastName: 'Owner' });
  const passwordHash = (
    await db.k.selectFrom('users').select('password_hash').where('user_name', '=', owner.userName).executeTakeFirstOrThrow()
  ).password_hash;
  const experts = SHARED_PROJECT_USERS.slice(1);
  await db.k
    .insertInto('users')
    .values(experts.map((userName) => userRow({ user_name: userName, role: 'CONS', password_hash: passwordHash })))
    .execute();
  const at = new Date().toISOString();
  const projectId = await insertProject(db, { owner: 'owner', ownerName: 'Olivia Owner', title: 'Shared project', state: 'active' });
  await db.k
    .insertInto('project_experts')
    .values(experts.map((userName) => ({ project_id: projectId, user_name: userName, name: userName, added_at: at, added_by: 'owner' })))
    .execute();
  if (options.history) {
    const detail = 'palabra '.repeat(SHARED_HISTORY.chars / 8);
    for (let i = 0; i < SHARED_HISTORY.events; i += 200) {
      await db.k
        .insertInto('project_events')
        .values(
          Array.from({ length: 200 }, () => ({
            project_id: projectId,
            at,
            actor: 'owner',
            actor_name: 'Olivia Owner',
            kind: 'note',
            detail,
          })),
        )
        .execute();
    }
  }
  const documentBytes = randomBytes(DOCUMENT_BYTES);
  documentBytes.write('%PDF-1.4\n', 0, 'latin1');
  let documentId = 0;
  if (options.document) {
    documentId = await db.k.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('project_documents')
        .values({
          project_id: projectId,
          name: 'big.pdf',
          content_type: 'application/pdf',
          bytes: DOCUMENT_BYTES,
          uploaded_by: 'owner',
          uploaded_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await storeDocumentChunks(trx, id, chunksOf(documentBytes));
      return id;
    });
  }
  return { projectId, documentId, documentBytes, passwordHash };
}

/* Project documents ----------------------------------------------------------------------- */

let random: Buffer | undefined;

/** Document `n`: a 10 MB PDF of its own, random bytes made once (the test's CPU is the server's too) and a first line of its own. */
export function bigPdf(n: number): Uint8Array<ArrayBuffer> {
  random ??= randomBytes(DOCUMENT_BYTES);
  const bytes = new Uint8Array(DOCUMENT_BYTES);
  bytes.set(random);
  Buffer.from(bytes.buffer).write(`%PDF-1.4\n%${String(n).padStart(6, '0')}\n`, 0, 'latin1');
  return bytes;
}

export const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Who uploads: a client signed in both ways (a Bearer token for the API, a cookie for the page). */
export type Uploader = { url: string; token: string; cookie: string };

/** What an upload was answered: stored or not, and (through the API) the document as stored. */
export type Upload = { stored: boolean; status: number; code: string | null; document: StoredDocument | null };
export type StoredDocument = { id: number; name: string; contentType: string; bytes: number };

/** One upload to `project`: through the API (201 when stored) or the client's project page's form answered as JSON (200 and `ok`). */
export async function uploadDocument(
  who: Uploader,
  project: number,
  file: { bytes: Uint8Array<ArrayBuffer>; name: string; type: string },
  via: 'api' | 'page',
): Promise<Upload> {
  const body = new FormData();
  body.set('file', new Blob([file.bytes], { type: file.type }), file.name);
  const res =
    via === 'api'
      ? await fetch(`${who.url}/api/projects/${project}/documents`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${who.token}`, Origin: who.url },
          body,
        })
      : await fetch(`${who.url}/en/client/projects/${project}`, {
          method: 'POST',
          headers: { Cookie: who.cookie, Origin: who.url, Accept: 'application/json' },
          body,
        });
  const answer = (await res.json()) as StoredDocument & { ok?: boolean; error?: { code: string }; form?: { error?: { code: string } } };
  const stored = via === 'api' ? res.status === 201 : res.status === 200 && answer.ok === true;
  return {
    stored,
    status: res.status,
    code: answer.error?.code ?? answer.form?.error?.code ?? null,
    document: via === 'api' && stored ? { id: answer.id, name: answer.name, contentType: answer.contentType, bytes: answer.bytes } : null,
  };
}

/** The digests of every document stored in `projects`, each read back through the download route, sorted. */
export async function storedDigests(who: Uploader, projects: number[]): Promise<string[]> {
  const digests: string[] = [];
  for (const project of projects) {
    const res = await fetch(`${who.url}/api/projects/${project}/documents?pageSize=100`, {
      headers: { Authorization: `Bearer ${who.token}` },
    });
    const page = (await res.json()) as { items: { id: number }[] };
    for (const item of page.items) {
      const file = await fetch(`${who.url}/project-files/${project}/${item.id}`, { headers: { Cookie: who.cookie } });
      expect(file.status).toBe(200);
      digests.push(digest(Buffer.from(await file.arrayBuffer())));
    }
  }
  return digests.sort();
}
