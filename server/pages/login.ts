// The login page (also the authentication callback route): its form signs in (server/auth/forms.ts).
import { signIn } from '../auth/forms.ts';
import type { PageAction, PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'audit' | 'backend' | 'logger' | 'loginGuard' | 'sessions' | 'signedIn'> & {
  forms: Pick<PageServices['forms'], 'twoFactor'>;
};

export type LoginData = {
  /** A private page sent the visitor here and waits: "sign in to continue". */
  continuing: boolean;
};

// The page's words depend on the remembered page only, never on who the visitor is.
export const loader: PageLoader<LoginData> = async ({ returnPending }) => ({ data: { continuing: returnPending } });

export const action: PageAction<Uses> = (args) => signIn(args);
