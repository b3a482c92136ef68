import { IMAGE_MAX_BYTES, IMAGE_MIME_TYPES } from '../../shared/uploads.ts';
import { useId, type ChangeEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { localePath } from '../../shared/routes.ts';
import { FieldError, FormFeedback, fieldProps, TextField } from '../components/form-feedback.tsx';
import { documentHref } from '../../shared/documents.ts';
import { avatarSrc, postForm } from '../runtime/forms.ts';
import { OfflineFormNote } from '../components/offline-banner.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { useOnline } from '../runtime/online.ts';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/profile.ts';
import type { PageProps } from '../runtime/page-chunks.ts';
import { usePageForm } from '../runtime/use-page-form.ts';
import { DataSection } from '../my-account/data-section.tsx';
import { DeletionSection } from '../my-account/deletion-section.tsx';
import { SessionsSection } from '../my-account/sessions-section.tsx';
import { EmailSection } from '../my-account/email-section.tsx';
import { CompanySection } from '../my-account/company-section.tsx';
import { CalendarSection } from '../my-account/calendar-section.tsx';
import { MailSection } from '../my-account/mail-section.tsx';
import { NAME_MAX_LENGTH } from '../../shared/validation.ts';

const AVATAR_ACCEPT = IMAGE_MIME_TYPES.join(',');

export default function ProfilePage({ data, form }: PageProps<LoaderData<typeof loader>>) {
  const { t, locale } = useI18n();
  const { pathname, search } = useLocation();
  const { user } = data;
  const saved = new URLSearchParams(search).get('saved');
  const profile = usePageForm('profile', form);
  const avatar = usePageForm('avatar', form);
  const { state, onSubmit } = profile;
  const avatarState = avatar.state;
  const pending = profile.pending || avatar.pending;
  const online = useOnline();
  const avatarInputId = useId();

  function onAvatar(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    event.currentTarget.value = '';
    if (!file) return;
    if (!AVATAR_ACCEPT.split(',').includes(file.type)) {
      avatar.setState({ form: 'avatar', error: { code: 'unsupported_image', message: '', fields: { avatar: 'validation.imageType' } } });
      return;
    }
    if (file.size > IMAGE_MAX_BYTES) {
      avatar.setState({ form: 'avatar', error: { code: 'image_too_large', message: '', fields: { avatar: 'validation.imageTooLarge' } } });
      return;
    }
    // The image itself is the body (image/png…), as the form would send it without JavaScript.
    void avatar.post(() => postForm(pathname, file, file.type));
  }

  return (
    <div className="container page narrow">
      <h1>{t('pages.profile.title')}</h1>
      <p className="section-lead">{t('profile.lead')}</p>

      <ProfileContents
        sections={[
          ['avatar-title', t('profile.avatarTitle')],
          ['edit-title', t('profile.editTitle')],
          data.email ? ['email-title', t('emailChange.title')] : null,
          ['security-title', t('profile.securityTitle')],
          data.company ? ['company-title', t('profile.contents.company')] : null,
          data.mail ? ['mail-title', t('account.mail.title')] : null,
          data.calendar !== undefined ? ['calendar-title', t('account.calendar.title')] : null,
          ['sessions-title', t('account.sessions.title')],
          ['data-title', t('account.data.title')],
          data.account.deletion ? ['deletion-title', t('account.deletion.title')] : null,
        ]}
      />

      <div className="profile-card">
        <img src={avatarSrc(user.avatar)} alt="" width="96" height="96" />
        <dl>
          <dt>{t('profile.userName')}</dt>
          <dd>{user.userName}</dd>
          <dt>{t('profile.role')}</dt>
          <dd>{t(`roles.${user.role}`)}</dd>
        </dl>
      </div>

      <section aria-labelledby="avatar-title">
        <h2 id="avatar-title">{t('profile.avatarTitle')}</h2>
        <FormFeedback state={avatarState} successText={saved === 'avatar' && !avatarState ? t('profile.avatarSaved') : undefined} />
        <div className="field">
          <label htmlFor={avatarInputId}>{t('profile.avatarChoose')}</label>
          <input
            id={avatarInputId}
            type="file"
            accept={AVATAR_ACCEPT}
            onChange={onAvatar}
            disabled={pending || !online}
            aria-describedby={`${avatarInputId}-help`}
            {...fieldProps(avatarState, 'avatar', avatarInputId)}
          />
          <p id={`${avatarInputId}-help`} className="post-meta">
            {t('profile.avatarHelp')}
          </p>
          <FieldError state={avatarState} field="avatar" id={avatarInputId} />
        </div>
      </section>

      <section aria-labelledby="edit-title">
        <h2 id="edit-title">{t('profile.editTitle')}</h2>
        <FormFeedback state={state} successText={saved === 'profile' && !state ? t('profile.saved') : undefined} />
        <OfflineFormNote />
        <form className="form" method="post" action={pathname} noValidate onSubmit={onSubmit} aria-busy={pending}>
          <TextField
            form="profile"
            state={state}
            name="name"
            label={t('profile.name')}
            type="text"
            autoComplete="given-name"
            required
            maxLength={NAME_MAX_LENGTH}
            defaultValue={state?.values?.name ?? user.name}
          />
          <TextField
            form="profile"
            state={state}
            name="lastName"
            label={t('profile.lastName')}
            type="text"
            autoComplete="family-name"
            required
            maxLength={NAME_MAX_LENGTH}
            defaultValue={state?.values?.lastName ?? user.lastName}
          />
          <button className="button button-primary" type="submit" disabled={pending || !online}>
            {t('profile.save')}
          </button>
        </form>
      </section>

      {data.email && <EmailSection email={data.email} form={form} saved={saved} />}

      <section aria-labelledby="security-title">
        <h2 id="security-title" tabIndex={-1}>
          {t('profile.securityTitle')}
        </h2>
        <p className="actions">
          <Link to={localePath('changePassword', locale)}>{t('profile.changePassword')}</Link>
          <Link to={localePath('twoFactorSetup', locale)}>{t('profile.twoFactor')}</Link>
          {/* A document, not a page: a plain link so the browser downloads it. */}
          <a href={documentHref('profile', locale)} download>
            {t('profile.downloadPdf')}
          </a>
        </p>
      </section>

      {data.company && <CompanySection company={data.company} self={data.user.userName} form={form} saved={saved} />}
      {data.mail && <MailSection mail={data.mail} form={form} saved={saved} />}
      {data.calendar !== undefined && <CalendarSection calendar={data.calendar} form={form} saved={saved} />}
      <SessionsSection sessions={data.account.sessions} count={data.account.sessionCount} form={form} saved={saved} />
      <DataSection />
      {data.account.deletion && <DeletionSection deletion={data.account.deletion} form={form} saved={saved} />}
    </div>
  );
}

/**
 * "On this page": a link to each of the profile's sections, in their order (plain fragment links:
 * they work without JavaScript, and each heading takes the focus it is given, tabIndex=-1).
 */
function ProfileContents({ sections }: { sections: readonly (readonly [id: string, label: string] | null)[] }) {
  const { t } = useI18n();
  return (
    <nav className="profile-contents" aria-label={t('profile.contents.label')}>
      <ul>
        {sections
          .filter((section) => section !== null)
          .map(([id, label]) => (
            <li key={id}>
              <a href={`#${id}`}>{label}</a>
            </li>
          ))}
      </ul>
    </nav>
  );
}
