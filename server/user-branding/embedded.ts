// Branding in embedded mode: one row per client company or organisation in the database
// (company_branding, docs/decisions/041), edited by the admin through any of its people; every
// person of the company sees it. Read on every /client and /organization page, so kept in memory
// for a few seconds per user (no database read per request): a change made through this
// process shows at once, one made through another instance as soon as its change feed tells it
// (else within BRANDING_CACHE_MS), and a user moved to another company within BRANDING_CACHE_MS.
import { canonicalIdentity } from '../../shared/identity.ts';
import { sanitizeBranding, type Branding } from '../../shared/branding.ts';
import type { Db } from '../db/index.ts';
import { createTtlCache } from '../base/cache.ts';
import type { ChangeFeed } from '../db/changes.ts';
import type { Logger } from '../base/logger.ts';
import { brandedCompanyOf } from '../companies/companies.ts';

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
  /** The branding of the user's company (one query: the membership joined to it). */
  const read = (trx: Db['k'], userName: string) =>
    trx
      .selectFrom('company_members as m')
      .innerJoin('company_branding as b', 'b.company_id', 'm.company_id')
      .select(['b.color', 'b.logo'])
      .where('m.user_name', '=', canonicalIdentity(userName))
      .executeTakeFirst();
  const toBranding = (row: Row | undefined): Branding | null => sanitizeBranding(row, options.defaultColor);
  const cacheMs = options.cacheMs ?? BRANDING_CACHE_MS;
  const cache = createTtlCache<Branding | null>({ now: options.now ?? Date.now, maxEntries: 10_000 });
  // User names are compared in their canonical form (shared/identity.ts): so is the cache.
  const load = async (userName: string) => {
    const branding = toBranding(await read(k, userName));
    cache.set(canonicalIdentity(userName), branding, cacheMs);
    return branding;
  };
  // Another instance's edit: forget what is kept at once (else within cacheMs). A company's
  // branding is every one of its people's: an edit (rare, by an admin) forgets them all.
  options.changes?.subscribe('branding:', () => void cache.expire(() => true));
  const announce = (userName: string) =>
    options.changes
      ?.publish(`branding:${canonicalIdentity(userName)}`)
      .catch((error: unknown) => options.logger?.warn({ err: error }, 'could not announce a branding change'));
  /** The company whose branding an edit through `userName` changes (found before the edit's transaction). */
  async function companyOf(userName: string): Promise<number> {
    const companyId = await brandedCompanyOf(db, userName);
    if (companyId === null) throw new Error(`${userName} belongs to no company: only clients and organisations are branded`);
    return companyId;
  }
  async function write(trx: Db['k'], companyId: number, changes: { color?: string | null; logo?: string | null }) {
    const current = await trx
      .selectFrom('company_branding')
      .select(['color', 'logo'])
      .where('company_id', '=', companyId)
      .executeTakeFirst();
    const row = {
      color: changes.color !== undefined ? changes.color : (current?.color ?? null),
      logo: changes.logo !== undefined ? changes.logo : (current?.logo ?? null),
      updated_at: new Date().toISOString(),
    };
    await trx
      .insertInto('company_branding')
      .values({ company_id: companyId, ...row })
      .onConflict((oc) => oc.column('company_id').doUpdateSet(row))
      .execute();
    return current;
  }
  return {
    async getBranding(userName) {
      const cached = cache.get(canonicalIdentity(userName));
      return cached?.fresh ? cached.value : load(userName);
    },
    async setBranding(userName, changes) {
      const companyId = await companyOf(userName);
      await k.transaction().execute((trx) => write(trx, companyId, changes));
      // Committed: every person of the company reads it again (here at once, elsewhere when told).
      cache.expire(() => true);
      void announce(userName);
      return load(userName);
    },
    async replaceLogo(userName, logo) {
      const companyId = await companyOf(userName);
      const previous = await k.transaction().execute(async (trx) => (await write(trx, companyId, { logo }))?.logo ?? null);
      cache.expire(() => true);
      void announce(userName);
      return { branding: await load(userName), previous };
    },
  };
}
