// Two-factor tests: a site with users, browsers as supertest agents (they keep their cookies),
// and codes made here with otpauth from the secret the set-up page shows, like a phone would.
import { Secret, TOTP } from 'otpauth';
import request from 'supertest';
import { expect } from 'vitest';
import type { Express } from 'express';
import type { Audit, AuditEntry } from '../../server/audit/types.ts';
import { ORIGIN, createTestApp } from '../helpers/app.ts';
import { addUser, DEFAULT_PASSWORD, type TestUser } from '../helpers/users.ts';

export { DEFAULT_PASSWORD } from '../helpers/users.ts';

/** An audit that keeps what it is told. */
export function recordingAudit(): Audit & { entries: AuditEntry[] } {
  const entries: AuditEntry[] = [];
  return {
    entries,
    async record(entry) {
      entries.push(entry);
    },
  };
}

/** A site of its own (a fresh database) with these users and an audit to read. */
export async function twoFactorSite(users: TestUser[], env: Record<string, string> = {}) {
  const audit = recordingAudit();
  const site = await createTestApp(env, { audit });
  for (const user of users) await addUser(site.db, user);
  return { ...site, audit };
}

/** The code an authenticator app shows for this secret at `at` (default now). */
export function totp(secret: string, at = Date.now()): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at });
}

/** Six digits that are no code of this secret around `at` (the steps before and after included). */
export function wrongCode(secret: string, at = Date.now()): string {
  const near = new Set([-1, 0, 1].map((step) => totp(secret, at + step * 30_000)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!near.has(candidate)) return candidate;
  }
}

export type Agent = ReturnType<typeof request.agent>;

/** A browser without JavaScript: it keeps cookies and posts forms from the site's own pages. */
export function browser(app: Express): Agent {
  return request.agent(app);
}

export function post(agent: Agent, path: string, form: Record<string, string>, json = false) {
  const req = agent.post(path).set('Origin', ORIGIN).type('form').send(form);
  return json ? req.set('Accept', 'application/json') : req;
}

export function signInWithPassword(agent: Agent, userName: string, prefix = '', password = DEFAULT_PASSWORD) {
  return post(agent, `${prefix}/login`, { identifier: userName, password });
}

/** The secret of the set-up page, read from its text as a person would type it. */
export function secretOnPage(html: string): string {
  const match = /<code class="two-factor-secret">([A-Z2-7 ]+)<\/code>/.exec(html);
  if (!match) throw new Error('no secret on the set-up page');
  return match[1]!.replace(/ /g, '');
}

/** Signs in (no 2FA yet), reads the key on the set-up page and turns 2FA on: the secret and the recovery codes. */
export async function setUpTwoFactor(agent: Agent, userName: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const login = await signInWithPassword(agent, userName);
  expect(login.status, login.text).toBe(303);
  const page = await agent.get('/profile/twoFactor');
  expect(page.status).toBe(200);
  const secret = secretOnPage(page.text);
  const answer = await post(agent, '/profile/twoFactor', { action: 'enable', code: totp(secret) }, true);
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.reveal).toHaveLength(10);
  return { secret, recoveryCodes: answer.body.reveal as string[] };
}

/** The session cookie a response sets, if any. */
export function sessionCookieSet(res: request.Response): boolean {
  const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  return cookies.some((c) => c.startsWith('auth._token.local=') && !/auth\._token\.local=;/.test(c));
}
