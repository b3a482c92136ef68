// What the account tests share: the site on a fresh database of the run's engine, sending its
// e-mails to a real SMTP server started by the test, an audit that remembers what it was told,
// and the steps of a visitor (open an e-mailed link, post a form) in a cookie-keeping agent.
import type { Express } from 'express';
import request from 'supertest';
import { expect, onTestFinished } from 'vitest';
import type { AppDeps } from '../../server/app.ts';
import type { Audit, AuditEntry } from '../../server/audit/types.ts';
import { createTestApp, ORIGIN } from '../helpers/app.ts';
import { startSmtp, type ReceivedMail } from '../helpers/smtp.ts';
import { addUser, DEFAULT_PASSWORD, loginToken, type TestUser } from '../helpers/users.ts';

export { DEFAULT_PASSWORD, ORIGIN };

export type RecordingAudit = Audit & { entries: AuditEntry[] };

export function recordingAudit(): RecordingAudit {
  const entries: AuditEntry[] = [];
  return { entries, record: async (entry) => void entries.push(entry) };
}

/** The site with SMTP_URL pointing at a test SMTP server; both stopped when the test ends. */
export async function accountsSite(
  options: { env?: Record<string, string>; users?: TestUser[]; deps?: Partial<AppDeps>; /** No SMTP_URL at all. */ noSmtp?: boolean } = {},
) {
  const smtp = await startSmtp();
  const audit = recordingAudit();
  const env = { ...(options.noSmtp ? {} : { SMTP_URL: smtp.url }), SITE_NAME: 'Acme', ...options.env };
  const site = await createTestApp(env, { audit, ...options.deps });
  onTestFinished(async () => {
    await site.close();
    await smtp.stop();
  });
  for (const user of options.users ?? []) await addUser(site.db, user);
  /** Sends what is queued and waits until the SMTP server holds `count` messages in all. */
  async function delivered(count: number): Promise<ReceivedMail[]> {
    await site.mail.flush();
    return smtp.waitFor(count);
  }
  return { ...site, smtp, audit, delivered };
}

export type Site = Awaited<ReturnType<typeof accountsSite>>;

/** The one link of the site's in an e-mail's text part (its path and query). */
export function linkIn(mail: ReceivedMail): string {
  const found = (mail.text ?? '').match(/https:\/\/www\.example\.test(\/\S*\?token=[A-Za-z0-9_-]{43})/);
  expect(found, `a link in: ${mail.text}`).not.toBeNull();
  return found![1]!;
}

/** The e-mails that went to one address. */
export function mailsTo(site: Site, address: string): ReceivedMail[] {
  return site.smtp.messages.filter((m) => m.envelope.to.includes(address));
}

/**
 * A browser without JavaScript that opens an e-mailed link: the token moves into a cookie and
 * the browser is sent to the bare page (link-cookie.ts). Answers the agent and that page's path.
 */
export async function openLink(app: Express, link: string, agent = request.agent(app)) {
  const opened = await agent.get(link);
  expect(opened.status, `GET ${link}`).toBe(303);
  const page = link.split('?')[0]!;
  expect(opened.headers.location).toBe(page);
  return { agent, page };
}

/** A form posted as a browser without JavaScript posts it (its page's URL, the site's Origin). */
export function postForm(agent: request.Agent | ReturnType<typeof request>, path: string, fields: Record<string, string>) {
  return agent.post(path).set('Origin', ORIGIN).type('form').send(fields);
}

/** The session cookie a response set (signed in), or null. */
export function sessionCookieOf(res: request.Response): string | null {
  const cookie = ([] as string[])
    .concat(res.headers['set-cookie'] ?? [])
    .find((c) => c.startsWith('auth._token.local=') && !c.startsWith('auth._token.local=;'));
  return cookie ? cookie.split(';')[0]! : null;
}

/** Signs in through the login form (no JavaScript) and answers the session cookie. */
export async function signIn(app: Express, identifier: string, password = DEFAULT_PASSWORD): Promise<string> {
  const res = await postForm(request(app), '/login', { identifier, password });
  expect(res.status, `sign-in of ${identifier}`).toBe(303);
  return sessionCookieOf(res)!;
}

/** An admin's Bearer token for the API. */
export async function adminToken(site: Site, userName = 'root'): Promise<string> {
  await addUser(site.db, { userName, role: 'ADMIN', email: `${userName}@example.com` });
  return loginToken(site.app, userName);
}

/** The actions of the account links; the site records others too (sign-ins, sign-outs). */
const LINK_ACTIONS: ReadonlySet<string> = new Set([
  'invitation_sent',
  'invitation_accepted',
  'password_reset_requested',
  'password_reset',
  'email_change_requested',
  'email_changed',
]);

/** What the account links recorded, in order. */
export function linkEntries(audit: RecordingAudit): AuditEntry[] {
  return audit.entries.filter((e) => LINK_ACTIONS.has(e.action));
}
