// What every screen of the admin console is given (see sections.ts).
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/admin.ts';
import type { SessionUser } from '../../shared/user.ts';

export type AdminScreenProps = {
  /** The admin page's server-rendered data. */
  data: LoaderData<typeof loader>;
  /** The signed-in admin. */
  user: SessionUser | null;
  /** The id of the screen's h2: the page's list of sections links to it. */
  headingId: string;
};
