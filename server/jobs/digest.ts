// The daily digest (docs/decisions/044): for each user with a topic in "digest", one
// e-mail with the notifications of those topics since their last digest, grouped by project, in
// their language — none when there is nothing. The notification centre is the digest's source:
// every notice is a notification of its recipient whatever their e-mail choice. A user's digest
// is queued in the transaction that moves their cursor (mail_preferences.digest_after) past what
// it told, only if the cursor is still where it was read: a run again after a crash (or two
// instances at once) never sends it twice, and a crash before the commit loses nothing. A digest
// that cannot be queued fails the run once the others are queued: the job is tried again, and
// that user's digest goes with it (docs/decisions/052).
import { sql } from 'kysely';
import { MAIL_TOPICS, TOPIC_OF_KIND, type MailTopic } from '../../shared/mail-preferences.ts';
import { NOTIFICATION_KINDS, type NotificationKind } from '../../shared/notifications.ts';
import type { Logger } from '../base/logger.ts';
import type { Db } from '../db/index.ts';
import type { MailPreferencesTable } from '../db/schema.ts';
import type { DigestGroup, DigestItem, Mail } from '../mail/index.ts';
import { digestStartsOf } from '../mail/preferences.ts';
import { findRecipients } from '../mail/recipients.ts';
import { notificationOf } from '../notifications/notifications.ts';

/** The most lines one digest lists; the rest are a count and a link to the notifications page. */
export const DIGEST_ITEMS_MAX = 100;
/** Users read per query. */
const USERS_PER_PAGE = 200;

/**
 * A held notice (a milestone's toggles, `ref` set) younger than this may yet be withdrawn
 * (PROJECT_MILESTONE_COLLAPSE_MINUTES): a digest stops before the first such one, which comes
 * with the next digest, with what follows it.
 */
export const DIGEST_SETTLE_MS = 10 * 60_000;

export type DigestDeps = {
  db: Db;
  mail: Pick<Mail, 'digestMail' | 'queueIn' | 'kick'>;
  logger: Logger;
  /** At least the hold of a milestone's notice (PROJECT_MILESTONE_COLLAPSE_MINUTES); DIGEST_SETTLE_MS by default. */
  settleMs?: number;
  /** Renews the job's claim (a page of users at a time). */
  keepAlive?: () => Promise<void>;
  now?: () => number;
};

export async function sendDigests(deps: DigestDeps): Promise<number> {
  const { k } = deps.db;
  const now = deps.now ?? Date.now;
  const before = new Date(now() - Math.max(deps.settleMs ?? DIGEST_SETTLE_MS, 0)).toISOString();
  let sent = 0;
  let failed = 0;
  let after = '';
  for (;;) {
    const users = await k
      .selectFrom('mail_preferences')
      .selectAll()
      .where((eb) => eb.or(MAIL_TOPICS.map((topic) => eb(topic, '=', 'digest'))))
      .where('user_name', '>', after)
      .orderBy('user_name')
      .limit(USERS_PER_PAGE)
      .execute();
    for (const row of users) {
      try {
        if (await digestOf(deps, row, before)) sent++;
      } catch (error) {
        // One user's problem is not everyone's: the others get theirs; theirs comes with the run's next attempt.
        failed++;
        deps.logger.error({ err: error, userName: row.user_name }, 'digest not queued: the run fails, and is tried again');
      }
    }
    if (users.length < USERS_PER_PAGE) break;
    after = users.at(-1)!.user_name;
    await deps.keepAlive?.();
  }
  if (sent > 0) deps.mail.kick();
  deps.logger.info({ sent, failed }, 'daily digests queued');
  if (failed > 0) throw new Error(`${failed} digests could not be queued (the log says why)`);
  return sent;
}

/** One user's digest: queued (true), or nothing to tell. */
async function digestOf(deps: DigestDeps, row: MailPreferencesTable, before: string): Promise<boolean> {
  const { k } = deps.db;
  const from = Number(row.digest_after);
  const starts = digestStartsOf(row);
  // Each topic in the digest: its kinds, after the last digest and after the topic joined it.
  const topics = MAIL_TOPICS.filter((topic) => row[topic] === 'digest');
  const kindsOf = (topic: MailTopic) => NOTIFICATION_KINDS.filter((kind: NotificationKind) => TOPIC_OF_KIND[kind] === topic);
  const young = await k
    .selectFrom('notifications')
    .select(sql<number | null>`min(id)`.as('id'))
    .where('user_name', '=', row.user_name)
    .where('id', '>', from)
    .where('ref', 'is not', null)
    .where('created_at', '>=', before)
    .executeTakeFirst();
  const held = young?.id == null ? null : Number(young.id);
  const told = () =>
    k
      .selectFrom('notifications')
      .where('user_name', '=', row.user_name)
      .where('id', '>', from)
      .$if(held !== null, (q) => q.where('id', '<', held!))
      .where((eb) => eb.or(topics.map((topic) => eb.and([eb('kind', 'in', kindsOf(topic)), eb('id', '>', starts[topic] ?? 0)]))));
  const items = await told().selectAll().orderBy('id').limit(DIGEST_ITEMS_MAX).execute();
  if (items.length === 0) return false;
  // All of it listed, or the rest counted — up to what exists now, and never behind what is listed.
  let last = Number(items.at(-1)!.id);
  let more = 0;
  if (items.length === DIGEST_ITEMS_MAX) {
    const rest = await told()
      .where('id', '>', last)
      .select([sql<number | null>`max(id)`.as('last'), (eb) => eb.fn.countAll<number>().as('n')])
      .executeTakeFirstOrThrow();
    more = Number(rest.n);
    if (rest.last !== null) last = Math.max(last, Number(rest.last));
  }
  const recipient = (await findRecipients(deps.db, [row.user_name])).get(row.user_name);
  const groups = new Map<number, { title: string; items: DigestItem[] }>();
  for (const item of items) {
    const n = notificationOf(item);
    const key = n.project?.id ?? 0;
    const group = groups.get(key) ?? { title: n.project?.title ?? '', items: [] };
    group.title = n.project?.title ?? group.title; // the newest title
    group.items.push({
      kind: n.kind,
      actor: n.actor,
      from: n.from,
      to: n.to,
      milestone: n.milestone,
      excerpt: n.excerpt,
      document: n.document,
      due: n.due,
      expert: n.expert,
      version: n.version,
    });
    groups.set(key, group);
  }
  // A disabled user, or one without an address, gets none; their cursor moves on all the same.
  const mail = recipient ? deps.mail.digestMail(recipient, [...groups.values()] as DigestGroup[], more) : null;
  return k.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable('mail_preferences')
      .set({ digest_after: last })
      .where('user_name', '=', row.user_name)
      .where('digest_after', '=', from)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return false; // another run told it
    if (mail) await deps.mail.queueIn(trx, [mail]);
    return mail !== null;
  });
}
