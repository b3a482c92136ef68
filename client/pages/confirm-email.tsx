import { LinkProblem, refusalOf } from '../account-links/link-problem.tsx';
import { FormFeedback } from '../components/form-feedback.tsx';
import { OfflineFormNote } from '../components/offline-banner.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { usePageForm } from '../runtime/use-page-form.ts';
import { useOnline } from '../runtime/online.ts';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/confirm-email.ts';
import type { PageProps } from '../runtime/page-chunks.ts';

/**
 * The page of the link sent to a new e-mail address. Opening it changes nothing (mail programs
 * open links to look at them): the button does.
 */
export default function ConfirmEmailPage({ data, form }: PageProps<LoaderData<typeof loader>>) {
  const { t } = useI18n();
  const { state, pending, onSubmit, action } = usePageForm('confirmEmail', form);
  const online = useOnline();
  // A link refused when the form was sent, or already when the page was opened.
  const problem = refusalOf(state?.error?.code) ?? (data.state === 'valid' ? null : data.state);
  if (problem) return <LinkProblem page="confirmEmail" state={problem} />;
  return (
    <div className="container page narrow">
      <h1>{t('pages.confirm-email.title')}</h1>
      <p className="section-lead">{t('confirmEmail.lead', { userName: data.userName ?? '', email: data.newEmail ?? '' })}</p>
      <FormFeedback state={state} fieldless />
      <OfflineFormNote />
      <form className="form" method="post" action={action} noValidate onSubmit={onSubmit} aria-busy={pending}>
        <button className="button button-primary" type="submit" disabled={pending || !online}>
          {t('confirmEmail.submit')}
        </button>
      </form>
    </div>
  );
}
