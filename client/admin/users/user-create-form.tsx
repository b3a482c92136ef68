// "New user": a form that creates an account with any role; without a password the server
// generates one, shown here once; or, invited, the user gets an e-mail to choose their own (the
// console shows the link instead when the site cannot send e-mail).
import { useId, useState, type FormEvent } from 'react';
import type { FormState } from '../../../shared/page-data.ts';
import { isRole, ROLES } from '../../../shared/user.ts';
import { NAME_MAX_LENGTH, EMAIL_MAX_LENGTH, USER_NAME_MAX_LENGTH } from '../../../shared/validation.ts';
import { useI18n } from '../../runtime/i18n.tsx';
import { createUser, type NewUserInput, type UserWithPassword } from '../api.ts';
import { Field } from '../field.tsx';
import { markedFields } from '../../components/form-feedback.tsx';
import { failureText, roleLabel } from '../text.ts';
import { newUserProblems } from './new-user-problems.ts';
import { CreatedUserNotice } from './created-user-notice.tsx';
import { InviteFields } from './invite-fields.tsx';
import { defaultLocale, isLocale } from '../../../shared/locales.ts';

function text(data: FormData, field: string): string {
  const value = data.get(field);
  return typeof value === 'string' ? value : '';
}

function inputOf(data: FormData): NewUserInput {
  const role = text(data, 'role');
  const email = text(data, 'email').trim();
  const password = text(data, 'password');
  const person = {
    userName: text(data, 'userName').trim(),
    name: text(data, 'name').trim(),
    lastName: text(data, 'lastName').trim(),
    role: isRole(role) ? role : 'CLI',
    ...(email ? { email } : {}),
  };
  // An invitation sets no password: the invited person chooses it, in the language chosen here.
  if (data.get('invite') !== null) {
    const chosen = text(data, 'locale');
    return { ...person, invite: true, locale: isLocale(chosen) ? chosen : defaultLocale };
  }
  return { ...person, ...(password ? { password } : {}) };
}

export function UserCreateForm({ enabled, onCreated }: { enabled: boolean; onCreated: () => Promise<void> }) {
  const { t } = useI18n();
  const id = useId();
  const [state, setState] = useState<FormState | undefined>(undefined);
  // Invite by e-mail (the user chooses their password) instead of setting one here.
  const [inviting, setInviting] = useState(false);
  const [created, setCreated] = useState<UserWithPassword | null>(null);
  const [pending, setPending] = useState(false);
  const fieldId = (field: string) => `${id}-${field}`;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const form = event.currentTarget;
    const input = inputOf(new FormData(form));
    setCreated(null);
    const problems = newUserProblems(input);
    if (Object.keys(problems).length > 0) {
      setState({ form: 'adminCreateUser', error: { code: 'invalid_request', message: '', fields: problems } });
      return;
    }
    setState(undefined);
    setPending(true);
    const answer = await createUser(input);
    setPending(false);
    if (!answer.ok) {
      const { fields } = answer.error;
      setState({
        form: 'adminCreateUser',
        error: { code: answer.error.code, message: failureText(t, answer.error), ...(fields ? { fields } : {}) },
      });
      return;
    }
    form.reset();
    setInviting(false);
    setCreated(answer.value);
    await onCreated();
  }

  const error = state?.error;
  // With field errors the details are under the fields; the summary only counts them (as FormFeedback).
  const marked = markedFields(error);
  const errorText = error ? (marked ? t('formErrors.summary', { count: marked }) : error.message) : null;

  return (
    <section className="admin-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('adminConsole.create.title')}</h2>
      <p className="section-lead">{t('adminConsole.create.lead')}</p>
      {errorText && (
        <p className="form-error" role="alert">
          {errorText}
        </p>
      )}
      {created && <CreatedUserNotice created={created} onDismiss={() => setCreated(null)} />}
      <form className="form admin-create-form" method="post" noValidate onSubmit={onSubmit} aria-busy={pending}>
        <Field
          id={fieldId('userName')}
          label={t('adminConsole.create.userName')}
          state={state}
          field="userName"
          hint={t('adminConsole.create.userNameHint')}
        >
          {(props) => (
            <input
              {...props}
              name="userName"
              type="text"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              required
              maxLength={USER_NAME_MAX_LENGTH}
            />
          )}
        </Field>
        <Field
          id={fieldId('email')}
          label={t(inviting ? 'adminConsole.create.emailRequired' : 'adminConsole.create.email')}
          state={state}
          field="email"
        >
          {(props) => <input {...props} name="email" type="email" autoComplete="off" maxLength={EMAIL_MAX_LENGTH} required={inviting} />}
        </Field>
        <Field id={fieldId('name')} label={t('adminConsole.create.name')} state={state} field="name">
          {(props) => <input {...props} name="name" type="text" autoComplete="off" required maxLength={NAME_MAX_LENGTH} />}
        </Field>
        <Field id={fieldId('lastName')} label={t('adminConsole.create.lastName')} state={state} field="lastName">
          {(props) => <input {...props} name="lastName" type="text" autoComplete="off" required maxLength={NAME_MAX_LENGTH} />}
        </Field>
        <Field id={fieldId('role')} label={t('adminConsole.create.role')} state={state} field="role">
          {(props) => (
            <select {...props} name="role" defaultValue="CLI" required>
              {/* A required select starts with its placeholder (HTML's placeholder label option): the empty value is no role. */}
              <option value="">{t('adminConsole.create.rolePlaceholder')}</option>
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {roleLabel(t, role)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <InviteFields fieldId={fieldId} state={state} inviting={inviting} onInviting={setInviting} />
        <div className="actions">
          <button className="button button-primary" type="submit" disabled={!enabled || pending}>
            {pending ? t('adminConsole.create.pending') : t('adminConsole.create.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
