// The profile's team (docs/decisions/041): the user's company or organisation, who is in it and what each
// may do. Its manager invites colleagues by address (an e-mail with a link to choose a password;
// they are listed once they have, docs/decisions/049), removes them, hands the manager role over
// and renames it; members see who is in it. Forms posted to
// the profile with an intent, with or without JavaScript. The people are listed a page at a time
// (`?team=2`).
import { useNavigate } from 'react-router-dom';
import { companyName, isDeletedUser } from '../../shared/account.ts';
import { TEAM_PAGE_PARAM, type CompanyMember, type CompanyView } from '../../shared/company.ts';
import type { FormState } from '../../shared/page-data.ts';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH } from '../../shared/validation.ts';
import { COMPANY_NAME_MAX_LENGTH } from '../../shared/company.ts';
import { Pager } from '../components/pager.tsx';
import { FormFeedback, TextField } from '../components/form-feedback.tsx';
import { OfflineFormNote } from '../components/offline-banner.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { useOnline } from '../runtime/online.ts';
import { usePageForm } from '../runtime/use-page-form.ts';

const SAVED = ['colleagueInvited', 'colleagueRemoved', 'managerHandedOver', 'companyRenamed'] as const;

export function CompanySection({
  company,
  self,
  form,
  saved,
}: {
  company: CompanyView;
  /** The signed-in user's name: their own row offers nothing. */
  self: string;
  form: FormState | undefined;
  saved: string | null;
}) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const { state, pending, onSubmit, action } = usePageForm('company', form);
  const online = useOnline();
  const manager = company.role === 'manager';
  const kind = company.kind === 'ORG' ? 'organisation' : 'company';
  const done = SAVED.find((s) => s === saved);
  const success = state || !done ? undefined : t(`company.saved.${done}`);
  const pages = Math.max(1, Math.ceil(company.total / company.pageSize));
  const pageHref = (page: number) => (page === 1 ? '?' : `?${TEAM_PAGE_PARAM}=${page}`) + '#company-title';

  return (
    <section aria-labelledby="company-title" className="account-section">
      <h2 id="company-title" tabIndex={-1}>
        {t(`company.title.${kind}`, { name: companyName(t, { name: company.companyName }) })}
      </h2>
      <p className="section-lead">
        {t(`company.lead.${kind}`)} {t(manager ? 'company.youManage' : 'company.youAreMember')}
      </p>
      <FormFeedback state={state} successText={success} />
      <ul className="member-list" aria-label={t('company.people', { count: company.total })} aria-busy={pending}>
        {company.members.map((member) => (
          <MemberRow key={member.userName} member={member} self={member.userName === self} manager={manager}>
            {manager && member.userName !== self && (
              <div className="member-actions">
                {!member.invited && (
                  <form className="inline-form" method="post" action={action} noValidate onSubmit={onSubmit}>
                    <input type="hidden" name="intent" value="handOverManager" />
                    <input type="hidden" name="colleague" value={member.userName} />
                    <button className="button button-secondary button-small" type="submit" disabled={pending || !online}>
                      {t('company.handOver')}
                      <span className="visually-hidden"> {t('company.to', { name: fullName(member) })}</span>
                    </button>
                  </form>
                )}
                <form className="inline-form" method="post" action={action} noValidate onSubmit={onSubmit}>
                  <input type="hidden" name="intent" value="removeColleague" />
                  <input type="hidden" name="colleague" value={member.userName} />
                  <button className="button button-danger button-small" type="submit" disabled={pending || !online}>
                    {t('company.remove')}
                    <span className="visually-hidden"> {fullName(member)}</span>
                  </button>
                </form>
              </div>
            )}
          </MemberRow>
        ))}
      </ul>
      {pages > 1 && (
        <Pager
          messages="company.pager"
          page={company.page}
          pages={pages}
          disabled={pending}
          href={pageHref}
          onGo={(page) => void navigate(pageHref(page))}
        />
      )}
      {manager && (
        <>
          <OfflineFormNote />
          <details className="company-invite" open={state?.values?.email !== undefined}>
            <summary className="button button-primary">{t('company.invite.open')}</summary>
            <form className="form" method="post" action={action} noValidate onSubmit={onSubmit} aria-busy={pending}>
              <input type="hidden" name="intent" value="inviteColleague" />
              <p className="field-hint">{t('company.invite.hint')}</p>
              <TextField
                form="company"
                state={state}
                name="name"
                label={t('company.invite.name')}
                autoComplete="off"
                required
                maxLength={NAME_MAX_LENGTH}
                defaultValue={state?.values?.name ?? ''}
              />
              <TextField
                form="company"
                state={state}
                name="lastName"
                label={t('company.invite.lastName')}
                autoComplete="off"
                required
                maxLength={NAME_MAX_LENGTH}
                defaultValue={state?.values?.lastName ?? ''}
              />
              <TextField
                form="company"
                state={state}
                name="email"
                type="email"
                label={t('company.invite.email')}
                autoComplete="off"
                required
                maxLength={EMAIL_MAX_LENGTH}
                defaultValue={state?.values?.email ?? ''}
              />
              <button className="button button-primary" type="submit" disabled={pending || !online}>
                {t('company.invite.submit')}
              </button>
            </form>
          </details>
          <form className="form company-rename" method="post" action={action} noValidate onSubmit={onSubmit}>
            <input type="hidden" name="intent" value="renameCompany" />
            <TextField
              form="company"
              state={state}
              name="companyName"
              label={t(`company.rename.${kind}`)}
              required
              maxLength={COMPANY_NAME_MAX_LENGTH}
              defaultValue={state?.values?.companyName ?? (isDeletedUser(company.companyName) ? '' : company.companyName)}
            />
            <button className="button button-secondary" type="submit" disabled={pending || !online}>
              {t('company.rename.submit')}
            </button>
          </form>
        </>
      )}
    </section>
  );
}

function fullName(member: CompanyMember): string {
  return `${member.name} ${member.lastName}`.trim() || member.userName;
}

function MemberRow({
  member,
  self,
  manager,
  children,
}: {
  member: CompanyMember;
  self: boolean;
  manager: boolean;
  children: React.ReactNode;
}) {
  const { t } = useI18n();
  return (
    <li className="member-item">
      <p className="member-name">
        <strong>{fullName(member)}</strong> <span className="member-user">({member.userName})</span>
        <span className={member.role === 'manager' ? 'badge badge-on' : 'badge'}>{t(`company.role.${member.role}`)}</span>
        {self && <span className="badge">{t('company.you')}</span>}
        {member.invited && <span className="badge badge-invited">{t('company.invited')}</span>}
      </p>
      {manager && member.email && <p className="field-hint">{member.email}</p>}
      {children}
    </li>
  );
}
