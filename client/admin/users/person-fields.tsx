import type { FormState, NewUserPrefill } from '../../../shared/page-data.ts';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, USER_NAME_MAX_LENGTH } from '../../../shared/validation.ts';
import { useI18n } from '../../runtime/i18n.tsx';
import { Field } from '../field.tsx';

/** Who the new user is: user name, e-mail (required to invite), name and last name; filled in from a contact message when given. */
export function PersonFields({
  fieldId,
  state,
  inviting,
  prefill,
}: {
  fieldId: (field: string) => string;
  state: FormState | undefined;
  inviting: boolean;
  prefill: NewUserPrefill | null;
}) {
  const { t } = useI18n();
  return (
    <>
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
            defaultValue={prefill?.userName}
          />
        )}
      </Field>
      <Field
        id={fieldId('email')}
        label={t(inviting ? 'adminConsole.create.emailRequired' : 'adminConsole.create.email')}
        state={state}
        field="email"
      >
        {(props) => (
          <input
            {...props}
            name="email"
            type="email"
            autoComplete="off"
            maxLength={EMAIL_MAX_LENGTH}
            required={inviting}
            defaultValue={prefill?.email}
          />
        )}
      </Field>
      <Field id={fieldId('name')} label={t('adminConsole.create.name')} state={state} field="name">
        {(props) => (
          <input {...props} name="name" type="text" autoComplete="off" required maxLength={NAME_MAX_LENGTH} defaultValue={prefill?.name} />
        )}
      </Field>
      <Field id={fieldId('lastName')} label={t('adminConsole.create.lastName')} state={state} field="lastName">
        {(props) => (
          <input
            {...props}
            name="lastName"
            type="text"
            autoComplete="off"
            required
            maxLength={NAME_MAX_LENGTH}
            defaultValue={prefill?.lastName}
          />
        )}
      </Field>
    </>
  );
}
