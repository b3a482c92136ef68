// What every screen of the admin console is given, besides its own data (each page's loader's).
import type { SessionUser } from '../../shared/user.ts';

export type AdminScreenProps = {
  /** The signed-in admin. */
  user: SessionUser | null;
  /** The id of the screen's h2. */
  headingId: string;
};
