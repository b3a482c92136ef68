// The clear page of a single-use link that does not work: why (never opened, unknown, already
// used, expired) and what to do next, which depends on what the link was for.
import { Link } from 'react-router-dom';
import type { LinkState } from '../../shared/page-data.ts';
import { localePath } from '../../shared/routes.ts';
import { useI18n } from '../runtime/i18n.tsx';

export type LinkPageName = 'invitation' | 'resetPassword' | 'confirmEmail';
export type LinkProblemState = Exclude<LinkState, 'valid'>;

/** Where each kind of link sends someone whose link does not work. */
const NEXT: Record<LinkPageName, { route: string; label: string }> = {
  invitation: { route: 'login', label: 'accountLink.next.login' },
  resetPassword: { route: 'forgotPassword', label: 'accountLink.next.forgotPassword' },
  confirmEmail: { route: 'profile', label: 'accountLink.next.profile' },
};

/** A link refused when its form was sent (the page's data said it worked a moment before). */
export function refusalOf(code: string | undefined): LinkProblemState | null {
  if (code === 'link_unknown') return 'unknown';
  if (code === 'link_used') return 'used';
  if (code === 'link_expired') return 'expired';
  return null;
}

export function LinkProblem({ page, state }: { page: LinkPageName; state: LinkProblemState }) {
  const { t, locale } = useI18n();
  const next = NEXT[page];
  return (
    <div className="container page narrow link-problem">
      <h1>{t(`accountLink.titles.${state}`)}</h1>
      <p className="section-lead">{t(`accountLink.${page}.${state}`)}</p>
      <p className="actions">
        <Link className="button button-primary" to={localePath(next.route, locale)}>
          {t(next.label)}
        </Link>
      </p>
    </div>
  );
}
