// Branding in embedded mode: one row per CLI/ORG user in the database, edited by the admin.
// Read on every /client and /organization page, so kept in memory for a few seconds (no
// database read per request, issue 7): a change made through this process shows at once, one
// made through another worker (WEB_CONCURRENCY > 1) within BRANDING_CACHE_MS.
import { canonicalIdentity } from '../../shared/identity.ts';
import { sanitizeBranding, type Branding } from '../../shared/branding.ts';
import type { Db } from '../db/index.ts';
import { createTtlCache } from '../base/cache.ts';
import type { ChangeFeed } from '../db/changes.ts';
import type { Logger } from '../base/logger.ts';

/** How long a worker keeps a user's branding before reading it again. */
export const BRANDING_CACHE_MS = 10_000;

export type BrandingSource = {
  /** The user's branding, or null for the defaults. Never throws for a missing record. */
  getBranding(userName: string): Promise<Branding | null>;
};

type Row = { color: string | null; logo: string | null };

export type EmbeddedBranding = BrandingSource & {
  setBranding(userName: string, changes: { color?: string | null; logo?: string | null }): Promise<Branding | null>;
  /** Sets (or removes, with null) the logo and answers the one it replaced, in one transaction. */
  replaceLogo(userName: string, logo: string | null): Promise<{ branding: Branding | null; previous: string | null }>;
};

export function embeddedBranding(
  db: Db,
  options: {
    /** The colour of a branding with a logo and no colour: the brand's primary (brand/brand.json), the navbar's default. */
    defaultColor: string;
    cacheMs?: number;
    now?: () => number;
    changes?: ChangeFeed;
    logger?: Logger;
  },
): EmbeddedBranding {
  const { k } = db;
  const read = (trx: Db['k'], userName: string) =>
    trx.selectFrom('branding').select(['color', 'logo']).where('user_name', '=', canonicalIdentity(userName)).executeTakeFirst();
  const toBranding = (row: Row | undefined): Branding | null => sanitizeBranding(row, options.defaultColor);
  const cacheMs = options.cacheMs ?? BRANDING_CACHE_MS;
  const cache = createTtlCache<Branding | null>({ now: options.now ?? Date.now, maxEntries: 10_000 });
  // User names are compared in their canonical form (shared/identity.ts): so is the cache.
  const load = async (userName: string) => {
    const branding = toBranding(await read(k, userName));
    cache.set(canonicalIdentity(userName), branding, cacheMs);
    return branding;
  };
  // Another instance's edit: forget the user's branding at once (else within cacheMs).
  options.changes?.subscribe('branding:', (topic) => cache.delete(topic.slice('branding:'.length)));
  const announce = (userName: string) =>
    options.changes
      ?.publish(`branding:${canonicalIdentity(userName)}`)
      .catch((error: unknown) => options.logger?.warn({ err: error }, 'could not announce a branding change'));
  async function write(trx: Db['k'], userName: string, changes: { color?: string | null; logo?: string | null }) {
    const current = await read(trx, userName);
    const row = {
      color: changes.color !== undefined ? changes.color : (current?.color ?? null),
      logo: changes.logo !== undefined ? changes.logo : (current?.logo ?? null),
      updated_at: new Date().toISOString(),
    };
    await trx
      .insertInto('branding')
      .values({ user_name: canonicalIdentity(userName), ...row })
      .onConflict((oc) => oc.column('user_name').doUpdateSet(row))
      .execute();
    return current;
  }
  return {
    async getBranding(userName) {
      const cached = cache.get(canonicalIdentity(userName));
      return cached?.fresh ? cached.value : load(userName);
    },
    async setBranding(userName, changes) {
      await k.transaction().execute((trx) => write(trx, userName, changes));
      void announce(userName);
      return load(userName);
    },
    async replaceLogo(userName, logo) {
      const previous = await k.transaction().execute(async (trx) => (await write(trx, userName, { logo }))?.logo ?? null);
      void announce(userName);
      return { branding: await load(userName), previous };
    },
  };
}
