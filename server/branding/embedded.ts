// Branding in embedded mode: one row per CLI/ORG user in the database, edited by the admin.
// Read on every /client and /organization page, so kept in memory for a few seconds (no
// database read per request, issue 7): a change made through this process shows at once, one
// made through another worker (WEB_CONCURRENCY > 1) within BRANDING_CACHE_MS.
import { sanitizeBranding, type Branding } from '../../shared/branding.ts';
import { DEFAULT_NAVBAR_COLOR } from '../../shared/constants.ts';
import type { Db } from '../db/index.ts';
import { createTtlCache } from '../cms/cache.ts';

/** How long a worker keeps a user's branding before reading it again. */
export const BRANDING_CACHE_MS = 10_000;

export type BrandingSource = {
  /** The user's branding, or null for the defaults. Never throws for a missing record. */
  getBranding(userName: string): Promise<Branding | null>;
};

type Row = { color: string | null; logo: string | null };

export function embeddedBranding(
  db: Db,
  options: { cacheMs?: number; now?: () => number } = {},
): BrandingSource & {
  setBranding(userName: string, changes: { color?: string | null; logo?: string | null }): Branding | null;
  /** Sets (or removes, with null) the logo and answers the one it replaced, in one synchronous step. */
  replaceLogo(userName: string, logo: string | null): { branding: Branding | null; previous: string | null };
} {
  const read = db.prepare<[string], Row>('SELECT color, logo FROM branding WHERE user_name = ?');
  const toBranding = (row: Row | undefined): Branding | null => sanitizeBranding(row, DEFAULT_NAVBAR_COLOR);
  const cacheMs = options.cacheMs ?? BRANDING_CACHE_MS;
  const cache = createTtlCache<Branding | null>({ now: options.now ?? Date.now, maxEntries: 10_000 });
  // User names are compared without regard to case (the column is COLLATE NOCASE): so is the cache.
  const load = (userName: string) => {
    const branding = toBranding(read.get(userName));
    cache.set(userName.toLowerCase(), branding, cacheMs);
    return branding;
  };
  const store = {
    async getBranding(userName: string) {
      const cached = cache.get(userName.toLowerCase());
      return cached?.fresh ? cached.value : load(userName);
    },
    setBranding(userName: string, changes: { color?: string | null; logo?: string | null }) {
      db.prepare(
        `INSERT INTO branding (user_name, color, logo) VALUES (@userName, @color, @logo)
         ON CONFLICT (user_name) DO UPDATE SET
           color = CASE WHEN @setColor THEN @color ELSE color END,
           logo = CASE WHEN @setLogo THEN @logo ELSE logo END,
           updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
      ).run({
        userName,
        color: changes.color ?? null,
        logo: changes.logo ?? null,
        setColor: changes.color !== undefined ? 1 : 0,
        setLogo: changes.logo !== undefined ? 1 : 0,
      });
      return load(userName);
    },
    replaceLogo(userName: string, logo: string | null) {
      const previous = read.get(userName)?.logo ?? null;
      return { branding: store.setBranding(userName, { logo }), previous };
    },
  };
  return store;
}
