// The user's own account, as the profile page shows it: their sessions and the state of a
// deletion request. The forms are profile-forms.ts, the download download.ts, the admin's side
// of deletion api/admin-deletions.ts.
import type { AccountData } from '../../shared/account.ts';
import type { Session } from '../auth/session-cookie.ts';
import type { Sessions } from '../auth/session-store.ts';
import type { ChangeFeed } from '../db/changes.ts';
import type { Db } from '../db/index.ts';
import type { Logger } from '../base/logger.ts';
import { createDeletions, type Deletions } from './deletion.ts';
import { sessionSummaries } from './session-list.ts';

export type AccountServices = {
  /** What the profile page shows of the signed-in user's account. */
  profileData(session: Session): Promise<AccountData>;
  /** Null when the accounts are not this site's (an external API keeps them). */
  deletions: Deletions | null;
};

export function createAccount(deps: {
  db: Db;
  sessions: Sessions;
  builtIn: boolean;
  changes?: ChangeFeed;
  logger: Logger;
}): AccountServices {
  const deletions = deps.builtIn ? createDeletions(deps) : null;
  return {
    deletions,
    async profileData(session) {
      const userName = session.user.userName;
      const [{ rows, total }, deletion] = await Promise.all([
        deps.sessions.listOf(userName, { first: session.id }),
        deletions ? deletions.stateOf(userName) : null,
      ]);
      return { sessions: sessionSummaries(rows, session.id), sessionCount: total, deletion };
    },
  };
}
