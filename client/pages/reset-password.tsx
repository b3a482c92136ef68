import { LinkProblem, refusalOf } from '../account-links/link-problem.tsx';
import { NewPasswordForm } from '../account-links/new-password-form.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { usePageForm } from '../runtime/use-page-form.ts';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/reset-password.ts';
import type { PageProps } from '../runtime/page-chunks.ts';

/** The page of a password-reset link: a new password, or why the link does not work. */
export default function ResetPasswordPage({ data, form }: PageProps<LoaderData<typeof loader>>) {
  const { t } = useI18n();
  const { state, pending, onSubmit, action } = usePageForm('resetPassword', form);
  // A link refused when the form was sent, or already when the page was opened.
  const problem = refusalOf(state?.error?.code) ?? (data.state === 'valid' ? null : data.state);
  if (problem) return <LinkProblem page="resetPassword" state={problem} />;
  return (
    <div className="container page narrow">
      <h1>{t('pages.reset-password.title')}</h1>
      <p className="section-lead">{t('resetPassword.lead', { userName: data.userName ?? '' })}</p>
      <NewPasswordForm
        form="resetPassword"
        userName={data.userName ?? ''}
        state={state}
        pending={pending}
        action={action}
        onSubmit={onSubmit}
        submitLabel={t('resetPassword.submit')}
      />
    </div>
  );
}
