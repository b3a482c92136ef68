// Branding in embedded mode: one row per CLI/ORG user in the database, edited by the admin.
import { sanitizeBranding, type Branding } from '../../shared/branding.ts';
import { DEFAULT_NAVBAR_COLOR } from '../../shared/constants.ts';
import type { Db } from '../db/index.ts';

export type BrandingSource = {
  /** The user's branding, or null for the defaults. Never throws for a missing record. */
  getBranding(userName: string): Promise<Branding | null>;
};

type Row = { color: string | null; logo: string | null };

export function embeddedBranding(db: Db): BrandingSource & {
  setBranding(userName: string, changes: { color?: string | null; logo?: string | null }): Branding | null;
} {
  const read = db.prepare<[string], Row>('SELECT color, logo FROM branding WHERE user_name = ?');
  const toBranding = (row: Row | undefined): Branding | null => sanitizeBranding(row, DEFAULT_NAVBAR_COLOR);
  return {
    async getBranding(userName) {
      return toBranding(read.get(userName));
    },
    setBranding(userName, changes) {
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
      return toBranding(read.get(userName));
    },
  };
}
