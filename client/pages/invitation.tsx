import { LinkProblem, refusalOf } from '../account-links/link-problem.tsx';
import { NewPasswordForm } from '../account-links/new-password-form.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { usePageForm } from '../runtime/use-page-form.ts';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/invitation.ts';
import type { PageProps } from '../runtime/page-chunks.ts';

/** The page of an invitation: the invited user chooses their password and enters their area. */
export default function InvitationPage({ data, form }: PageProps<LoaderData<typeof loader>>) {
  const { t } = useI18n();
  const { state, pending, onSubmit, action } = usePageForm('invitation', form);
  // A link refused when the form was sent, or already when the page was opened.
  const problem = refusalOf(state?.error?.code) ?? (data.state === 'valid' ? null : data.state);
  if (problem) return <LinkProblem page="invitation" state={problem} />;
  return (
    <div className="container page narrow">
      <h1>{t('pages.invitation.title')}</h1>
      <p className="section-lead">{t('invitation.lead', { userName: data.userName ?? '' })}</p>
      <NewPasswordForm
        form="invitation"
        userName={data.userName ?? ''}
        state={state}
        pending={pending}
        action={action}
        onSubmit={onSubmit}
        submitLabel={t('invitation.submit')}
      />
    </div>
  );
}
