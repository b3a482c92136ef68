// The login page (also the authentication callback route): its form signs in (server/auth/forms.ts).
import { signIn } from '../auth/forms.ts';
import { noData, type PageAction } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'audit' | 'backend' | 'logger' | 'loginGuard' | 'sessions' | 'signedIn'> & {
  forms: Pick<PageServices['forms'], 'twoFactor'>;
};

export const loader = noData;

export const action: PageAction<Uses> = (args) => signIn(args);
