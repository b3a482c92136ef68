// The users' e-mail preferences (docs/decisions/044): a mode per topic, read for many
// recipients at once when a notice is queued, changed from the profile (page form and API) or by
// a one-click unsubscribe link. A user without a row has the defaults.
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { canonicalIdentity } from '../../shared/identity.ts';
import {
  DEFAULT_MAIL_PREFERENCES,
  isMailMode,
  MAIL_MODES,
  MAIL_TOPICS,
  REMINDER_DAYS_MAX,
  REMINDER_DAYS_MIN,
  type MailPreferences,
  type MailTopic,
  type UnsubscribeScope,
} from '../../shared/mail-preferences.ts';
import type { Db } from '../db/index.ts';
import { inChunks } from '../db/lists.ts';
import type { MailPreferencesTable, Schema } from '../db/schema.ts';

type Row = MailPreferencesTable;

const mode = z.enum(MAIL_MODES, { message: 'validation.mailMode' });

/** A user's preferences as the API and the profile's form send them: every topic and the days. */
export const mailPreferencesBody = z
  .object({
    messages: mode,
    states: mode,
    milestones: mode,
    documents: mode,
    reminders: mode,
    reminderDays: z.coerce
      .number({ message: 'validation.reminderDays' })
      .int('validation.reminderDays')
      .min(REMINDER_DAYS_MIN, 'validation.reminderDays')
      .max(REMINDER_DAYS_MAX, 'validation.reminderDays'),
  })
  .strict();

function preferencesOf(row: Row | undefined): MailPreferences {
  if (!row) return { ...DEFAULT_MAIL_PREFERENCES };
  const prefs = { ...DEFAULT_MAIL_PREFERENCES, reminderDays: Number(row.reminder_days) };
  for (const topic of MAIL_TOPICS) {
    const mode = row[topic];
    if (isMailMode(mode)) prefs[topic] = mode;
  }
  return prefs;
}

/** Per topic, the notification after which it counts in a digest. */
export function digestStartsOf(row: Pick<Row, 'digest_starts'> | undefined): Partial<Record<MailTopic, number>> {
  if (!row) return {};
  try {
    const parsed = JSON.parse(row.digest_starts) as Record<string, unknown>;
    const starts: Partial<Record<MailTopic, number>> = {};
    for (const topic of MAIL_TOPICS) {
      const id = parsed[topic];
      if (typeof id === 'number' && Number.isSafeInteger(id)) starts[topic] = id;
    }
    return starts;
  } catch {
    return {};
  }
}

/** The highest notification id now: a digest starts after it (nothing from before the choice). */
async function lastNotificationId(k: Kysely<Schema>): Promise<number> {
  const row = await k
    .selectFrom('notifications')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

export type MailPreferencesStore = {
  get(userName: string): Promise<MailPreferences>;
  /** The preferences of these users (canonical names), by name; users without a row are absent. */
  many(userNames: readonly string[]): Promise<Map<string, MailPreferences>>;
  /** Saves all of them; a user who starts a digest gets one from now on, not of what came before. */
  set(userName: string, prefs: MailPreferences): Promise<MailPreferences>;
  /** Turns a topic off (never), or every topic the digest gathers: what a link of an e-mail does. */
  unsubscribe(userName: string, scope: UnsubscribeScope): Promise<MailPreferences>;
};

export function mailPreferences(db: Db, now: () => number = Date.now): MailPreferencesStore {
  const { k } = db;
  const get = async (userName: string) =>
    preferencesOf(
      await k.selectFrom('mail_preferences').selectAll().where('user_name', '=', canonicalIdentity(userName)).executeTakeFirst(),
    );

  /**
   * Changes a user's preferences in one transaction (the row locked on PostgreSQL): `change` gets
   * them as they are and answers what they become. Written with an upsert, so two first saves at
   * once never fail on the key.
   */
  async function update(userName: string, change: (was: MailPreferences) => MailPreferences): Promise<MailPreferences> {
    const key = canonicalIdentity(userName);
    await k.transaction().execute(async (trx) => {
      let read = trx.selectFrom('mail_preferences').selectAll().where('user_name', '=', key);
      if (db.engine === 'postgres') read = read.forUpdate();
      const before = await read.executeTakeFirst();
      const was = preferencesOf(before);
      const prefs = change({ ...was });
      // A topic newly in the digest counts from the last notification now: what came before was
      // e-mailed at once, or was not wanted by e-mail at all.
      const entering = MAIL_TOPICS.filter((topic) => prefs[topic] === 'digest' && was[topic] !== 'digest');
      const starts = digestStartsOf(before);
      if (entering.length > 0) {
        const last = await lastNotificationId(trx);
        for (const topic of entering) starts[topic] = last;
      }
      const values = {
        messages: prefs.messages,
        states: prefs.states,
        milestones: prefs.milestones,
        documents: prefs.documents,
        reminders: prefs.reminders,
        reminder_days: prefs.reminderDays,
        digest_starts: JSON.stringify(starts),
        updated_at: new Date(now()).toISOString(),
      };
      await trx
        .insertInto('mail_preferences')
        .values({ user_name: key, digest_after: 0, ...values })
        .onConflict((oc) => oc.column('user_name').doUpdateSet(values))
        .execute();
    });
    return get(key);
  }

  return {
    get,
    async many(userNames) {
      const found = new Map<string, MailPreferences>();
      for (const names of inChunks(userNames)) {
        const rows = await k.selectFrom('mail_preferences').selectAll().where('user_name', 'in', names).execute();
        for (const row of rows) found.set(canonicalIdentity(row.user_name), preferencesOf(row));
      }
      return found;
    },
    set: (userName, prefs) => update(userName, () => prefs),
    unsubscribe: (userName, scope) =>
      update(userName, (prefs) => {
        const off: MailTopic[] = scope === 'digest' ? MAIL_TOPICS.filter((topic) => prefs[topic] === 'digest') : [scope];
        for (const topic of off) prefs[topic] = 'never';
        return prefs;
      }),
  };
}
