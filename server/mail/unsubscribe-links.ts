// One-click unsubscribe links (RFC 8058; docs/decisions/044): every notice carries
// `List-Unsubscribe: <https://…/unsubscribe/<token>>` and `List-Unsubscribe-Post:
// List-Unsubscribe=One-Click`, and its footer shows the same address. The token is the account's
// id (not its user name: the address travels through relays and forwards), what the link turns
// off (a topic, or the digest), and a MAC with a key of the site's (from SESSION_SECRET; with
// SESSION_SECRETS made with the newest and checked with each, docs/decisions/051) over
// those and the account's user name and moment: nothing is stored, it works without signing in —
// for that account and that topic only —, and never for a later account (SQLite may reuse an id).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalIdentity } from '../../shared/identity.ts';
import { isMailTopic, UNSUBSCRIBE_PATH, type UnsubscribeScope } from '../../shared/mail-preferences.ts';

const TOKEN = /^([1-9][0-9]{0,14})\.([a-z]{1,20})\.([A-Za-z0-9_-]{43})$/;

/** The account a link is for: its user name, its id and when it was made (SQLite may give a later account a deleted one's id). */
export type LinkUser = { userName: string; id: number; createdAt: string };

function macOf(key: Buffer, user: LinkUser, scope: UnsubscribeScope): string {
  return createHmac('sha256', key)
    .update(`unsubscribe v1:${canonicalIdentity(user.userName)}:${user.id}:${user.createdAt}:${scope}`)
    .digest('base64url');
}

export function unsubscribeToken(key: Buffer, user: LinkUser, scope: UnsubscribeScope): string {
  return `${user.id}.${scope}.${macOf(key, user, scope)}`;
}

/** The path of a user's link for one scope. */
export function unsubscribePath(key: Buffer, user: LinkUser, scope: UnsubscribeScope): string {
  return `${UNSUBSCRIBE_PATH}/${unsubscribeToken(key, user, scope)}`;
}

/** The account and scope a token says it is about (not checked yet: see unsubscribeTokenValid); null when it cannot be one of ours. */
export function readUnsubscribeToken(token: string): { id: number; scope: UnsubscribeScope; mac: string } | null {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [, id, scope, mac] = match as unknown as [string, string, string, string];
  if (scope !== 'digest' && !isMailTopic(scope)) return null;
  const number = Number(id);
  return Number.isSafeInteger(number) ? { id: number, scope, mac } : null;
}

/** Whether the token's MAC is the one of this account (found by the token's id) under one of the keys. */
export function unsubscribeTokenValid(keys: readonly Buffer[], read: { scope: UnsubscribeScope; mac: string }, user: LinkUser): boolean {
  const given = Buffer.from(read.mac);
  return keys.some((key) => {
    const expected = Buffer.from(macOf(key, user, read.scope));
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** The headers of a notice that its reader may turn off in one click (RFC 2369, RFC 8058). */
export function unsubscribeHeaders(url: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}
