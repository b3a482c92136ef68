// "New user": a form that creates an account with any role; without a password the server
// generates one, shown here once; or, invited, the user gets an e-mail to choose their own (the
// console shows the link instead when the site cannot send e-mail). A client or organisation
// may start in a new company of the name given. "Invite as client" from a contact message opens
// it filled in (`prefill`).
import { useId, useState, type FormEvent } from 'react';
import { COMPANY_NAME_MAX_LENGTH } from '../../../shared/company.ts';
import type { FormState, NewUserPrefill } from '../../../shared/page-data.ts';
import { isRole, ROLES } from '../../../shared/user.ts';
import { useI18n } from '../../runtime/i18n.tsx';
import { createUser, type NewUserInput, type UserWithPassword } from '../api.ts';
import { Field } from '../field.tsx';
import { markedFields } from '../../components/form-feedback.tsx';
import { failureText, roleLabel } from '../text.ts';
import { newUserProblems } from './new-user-problems.ts';
import { CreatedUserNotice } from './created-user-notice.tsx';
import { InviteFields } from './invite-fields.tsx';
import { PersonFields } from './person-fields.tsx';
import { defaultLocale, isLocale } from '../../../shared/locales.ts';

function text(data: FormData, field: string): string {
  const value = data.get(field);
  return typeof value === 'string' ? value : '';
}

function inputOf(data: FormData): NewUserInput {
  const role = text(data, 'role');
  const email = text(data, 'email').trim();
  const password = text(data, 'password');
  const companyName = text(data, 'companyName').trim();
  const person = {
    userName: text(data, 'userName').trim(),
    name: text(data, 'name').trim(),
    lastName: text(data, 'lastName').trim(),
    role: isRole(role) ? role : 'CLI',
    ...(email ? { email } : {}),
    ...(companyName ? { companyName } : {}),
  };
  // An invitation sets no password: the invited person chooses it, in the language chosen here.
  if (data.get('invite') !== null) {
    const chosen = text(data, 'locale');
    return { ...person, invite: true, locale: isLocale(chosen) ? chosen : defaultLocale };
  }
  return { ...person, ...(password ? { password } : {}) };
}

export function UserCreateForm({
  enabled,
  onCreated,
  prefill,
}: {
  enabled: boolean;
  onCreated: () => Promise<void>;
  /** What a contact message fills in ("invite as client"), or null. */
  prefill: NewUserPrefill | null;
}) {
  const { t } = useI18n();
  const id = useId();
  const [state, setState] = useState<FormState | undefined>(undefined);
  // Invite by e-mail (the user chooses their password) instead of setting one here.
  const [inviting, setInviting] = useState(prefill !== null);
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
        <PersonFields fieldId={fieldId} state={state} inviting={inviting} prefill={prefill} />
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
        <Field
          id={fieldId('companyName')}
          label={t('adminConsole.create.companyName')}
          state={state}
          field="companyName"
          hint={t('adminConsole.create.companyNameHint')}
        >
          {(props) => (
            <input
              {...props}
              name="companyName"
              type="text"
              autoComplete="off"
              maxLength={COMPANY_NAME_MAX_LENGTH}
              defaultValue={prefill?.company}
            />
          )}
        </Field>
        <InviteFields fieldId={fieldId} state={state} inviting={inviting} onInviting={setInviting} locale={prefill?.locale} />
        <div className="actions">
          <button className="button button-primary" type="submit" disabled={!enabled || pending}>
            {pending ? t('adminConsole.create.pending') : t('adminConsole.create.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
