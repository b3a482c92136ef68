// What the account pages show, for their loaders (server/render/loaders.ts): the state of the
// link a page was opened with, and the profile's e-mail section.
import type { EmailSettings, LinkPage } from '../../shared/page-data.ts';
import type { LinkKind } from './links.ts';
import type { Accounts } from './service.ts';

/** The status a link's page answers with: the form 200, a link never known 404, a spent one 410. */
const STATUS: Readonly<Record<LinkPage['state'], number>> = { valid: 200, missing: 404, unknown: 404, used: 410, expired: 410 };

export type AccountPages = {
  linkPage(kind: LinkKind, token: string | null): Promise<{ data: LinkPage; status: number }>;
  emailSettings(user: { userName: string }): Promise<EmailSettings>;
  /** Forgotten passwords can be answered (an e-mail can be sent). */
  readonly resetAvailable: boolean;
};

export function accountPages(accounts: Accounts): AccountPages {
  return {
    async linkPage(kind, token) {
      const view = await accounts.view(kind, token);
      if (view.state !== 'valid') return { data: { state: view.state }, status: STATUS[view.state] };
      const data: LinkPage = { state: 'valid', userName: view.user.userName };
      if (view.link.newEmail) data.newEmail = view.link.newEmail;
      return { data, status: 200 };
    },
    async emailSettings({ userName }) {
      const user = await accounts.user(userName);
      return { current: user?.email ?? null, pending: await accounts.pendingEmail(userName), available: accounts.canSend };
    },
    get resetAvailable() {
      return accounts.canSend;
    },
  };
}
