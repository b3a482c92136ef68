// Single-use links sent by e-mail: an invitation, a password reset, an e-mail change. A link is
// a random token (32 bytes, base64url) that exists only in the e-mail; the table keeps its
// sha256 digest, whose user it is, what it is for and until when. Using one is one conditional
// UPDATE (… WHERE used_at IS NULL AND expires_at > now), so two uses racing — in any process —
// cannot both succeed; what the link does happens in the same transaction, so a failure leaves
// the link unused and nothing changed.
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/index.ts';
import type { AccountLinkRow } from '../db/schema.ts';

export const LINK_KINDS = ['invitation', 'password_reset', 'email_change'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

/** Why a link does not work: never issued (or replaced by a newer one, or long gone), used, or too old. */
export type LinkRefusal = 'unknown' | 'used' | 'expired';

export type AccountLink = { kind: LinkKind; userName: string; newEmail: string | null; expiresAt: number };

export type LinkCheck = { ok: true; link: AccountLink } | { ok: false; reason: LinkRefusal };

/** A transaction's query builder: what the link does when it is used goes through it. */
export type Tx = Db['k'];

/** Used and expired rows are kept this long, to tell "already used" or "expired" from "unknown". */
export const KEEP_SPENT_MS = 7 * 24 * 60 * 60 * 1000;

/** A token as this module makes them: what a link's `?token=` must look like to be looked up. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function digestOf(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

function toLink(row: AccountLinkRow): AccountLink {
  return { kind: row.kind as LinkKind, userName: row.user_name, newEmail: row.new_email, expiresAt: Number(row.expires_at) };
}

export type AccountLinks = ReturnType<typeof accountLinks>;

export function accountLinks(db: Db, now: () => number = Date.now) {
  const { k } = db;

  /** The row of a token of this kind, whatever its state (null: no such link). */
  async function find(kind: LinkKind, token: string): Promise<AccountLinkRow | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const row = await k
      .selectFrom('account_links')
      .selectAll()
      .where('token_digest', '=', digestOf(token))
      .where('kind', '=', kind)
      .executeTakeFirst();
    return row ?? null;
  }

  function judge(row: AccountLinkRow | null, at: number): LinkCheck {
    if (!row) return { ok: false, reason: 'unknown' };
    if (row.used_at !== null) return { ok: false, reason: 'used' };
    if (Number(row.expires_at) <= at) return { ok: false, reason: 'expired' };
    return { ok: true, link: toLink(row) };
  }

  async function prune(at: number): Promise<void> {
    await k
      .deleteFrom('account_links')
      .where((eb) => eb.or([eb('expires_at', '<', at - KEEP_SPENT_MS), eb('used_at', '<', at - KEEP_SPENT_MS)]))
      .execute();
  }

  return {
    /**
     * A new link: its raw token, returned this once. The user's older links of the kind stop
     * working (only the newest e-mail counts); spent rows of everyone's past are pruned.
     */
    async issue(kind: LinkKind, userName: string, ttlMs: number, extra: { newEmail?: string } = {}): Promise<string> {
      const token = randomBytes(32).toString('base64url');
      const at = now();
      await k.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('account_links')
          .where('user_name', '=', userName)
          .where('kind', '=', kind)
          .where('used_at', 'is', null)
          .execute();
        await trx
          .insertInto('account_links')
          .values({
            kind,
            user_name: userName,
            token_digest: digestOf(token),
            new_email: extra.newEmail ?? null,
            expires_at: at + ttlMs,
            used_at: null,
            created_at: new Date(at).toISOString(),
          })
          .execute();
      });
      await prune(at);
      return token;
    },

    /** What a link would do, without using it (the page shows its form, or why it does not work). */
    async inspect(kind: LinkKind, token: string): Promise<LinkCheck> {
      return judge(await find(kind, token), now());
    },

    /**
     * Uses the link, once: marks it used and runs `apply` in the same transaction. When the
     * link is unknown, used or expired nothing runs; when `apply` throws, the link stays unused
     * and its changes are undone.
     */
    async consume<T>(kind: LinkKind, token: string, apply: (link: AccountLink, trx: Tx) => Promise<T>): Promise<LinkCheck & { value?: T }> {
      if (!TOKEN_PATTERN.test(token)) return { ok: false, reason: 'unknown' };
      const at = now();
      const digest = digestOf(token);
      const outcome = await k.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('account_links')
          .set({ used_at: at })
          .where('token_digest', '=', digest)
          .where('kind', '=', kind)
          .where('used_at', 'is', null)
          .where('expires_at', '>', at)
          .returningAll()
          .executeTakeFirst();
        if (!row) return null;
        const link = toLink(row);
        return { link, value: await apply(link, trx) };
      });
      if (outcome) return { ok: true, link: outcome.link, value: outcome.value };
      // Refused: say why (read after the fact; a link used meanwhile reads as used).
      return judge(await find(kind, token), at) as LinkCheck & { ok: false };
    },

    /** The newest unused, unexpired link of a kind for a user (a pending e-mail change), or null. */
    async pending(kind: LinkKind, userName: string): Promise<AccountLink | null> {
      const row = await k
        .selectFrom('account_links')
        .selectAll()
        .where('user_name', '=', userName)
        .where('kind', '=', kind)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now())
        .orderBy('id', 'desc')
        .executeTakeFirst();
      return row ? toLink(row) : null;
    },

    /** Every unused link of the user stops working (the account was disabled or deleted). */
    async voidAll(userName: string): Promise<void> {
      await k.deleteFrom('account_links').where('user_name', '=', userName).where('used_at', 'is', null).execute();
    },
  };
}
