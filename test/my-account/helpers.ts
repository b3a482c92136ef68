import type { Db } from '../../server/db/index.ts';
// What the account tests share: an app whose audit entries can be read, and sign-ins through
// the login form from a given browser.
import type { Express } from 'express';
import request from 'supertest';
import { expect } from 'vitest';
import type { AuditEntry } from '../../server/audit/types.ts';
import type { AccountData } from '../../shared/account.ts';
import { createTestApp, ORIGIN } from '../helpers/app.ts';
import { DEFAULT_PASSWORD } from '../helpers/users.ts';

export const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
export const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0';
export const SAFARI_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

/** A fresh app whose audit entries land in `audit`. */
export async function appWithAudit(env?: Record<string, string>) {
  const audit: AuditEntry[] = [];
  const created = await createTestApp(env, { audit: { record: async (entry) => void audit.push(entry) } });
  return { ...created, audit };
}

function sessionCookie(res: request.Response): string {
  const cookie = ([] as string[])
    .concat(res.headers['set-cookie'] ?? [])
    .find((c) => c.startsWith('auth._token.local=') && !c.startsWith('auth._token.local=;'));
  if (!cookie) throw new Error(`no session cookie (${res.status}: ${res.text.slice(0, 200)})`);
  return cookie.split(';')[0]!;
}

/** Signs in through the login form with this browser's User-Agent; the session cookie. */
export async function signIn(app: Express, userName: string, userAgent = CHROME_ANDROID, password = DEFAULT_PASSWORD): Promise<string> {
  const res = await request(app)
    .post('/en/login')
    .set('Origin', ORIGIN)
    .set('User-Agent', userAgent)
    .type('form')
    .send({ identifier: userName, password });
  expect(res.status, res.text.slice(0, 300)).toBe(303);
  return sessionCookie(res);
}

/** A form posted to the profile, without JavaScript (303 or the page again) or with it (JSON). */
export function postProfile(app: Express, cookie: string, fields: Record<string, string>, options: { json?: boolean; path?: string } = {}) {
  const req = request(app)
    .post(options.path ?? '/en/profile')
    .set('Origin', ORIGIN)
    .set('Cookie', cookie)
    .type('form');
  if (options.json) req.set('Accept', 'application/json');
  return req.send(fields);
}

/** The profile page's data for this cookie, as a client navigation reads it. */
export async function profileData(app: Express, cookie: string): Promise<{ status: number; account?: AccountData }> {
  const res = await request(app).get('/_data').query({ path: '/en/profile' }).set('Cookie', cookie);
  if (res.body.kind !== 'payload') return { status: 302 };
  return { status: res.body.payload.status, account: res.body.payload.state.data?.account };
}

/** Whether the cookie still opens the private area (200), or is sent to login (302). */
export async function profileStatus(app: Express, cookie: string): Promise<number> {
  return (await request(app).get('/en/profile').set('Cookie', cookie)).status;
}

/** `count` messages of ~170 characters by the owner in a project, written 500 at a time. */
export async function manyMessages(db: Db, projectId: number, count: number) {
  const at = new Date().toISOString();
  const rows = Array.from({ length: count }, (_, i) => ({
    project_id: projectId,
    author: 'acme',
    author_name: 'Carla Acme',
    author_role: 'CLI',
    body: `Message number ${i} — ${'x'.repeat(150)}`,
    created_at: at,
  }));
  for (let i = 0; i < rows.length; i += 500)
    await db.k
      .insertInto('project_messages')
      .values(rows.slice(i, i + 500))
      .execute();
}
