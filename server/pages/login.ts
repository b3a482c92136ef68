// The login page (also the authentication callback route): its form signs in (server/auth/forms.ts).
import { signIn } from '../auth/forms.ts';
import { noData, type PageAction } from '../render/page-module.ts';

export const loader = noData;

export const action: PageAction = (args) => signIn(args);
