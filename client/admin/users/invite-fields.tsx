import type { FormState } from '../../../shared/page-data.ts';
import { LOCALES, type Locale } from '../../../shared/locales.ts';
import { PASSWORD_MAX_LENGTH } from '../../../shared/validation.ts';
import { useI18n } from '../../runtime/i18n.tsx';
import { Field } from '../field.tsx';

/**
 * "Invite by e-mail" and the field it switches: invited, the language of the invitation (the
 * user chooses their password); else the password, which the server generates when left empty.
 */
export function InviteFields({
  fieldId,
  state,
  inviting,
  onInviting,
  locale: chosen,
}: {
  fieldId: (field: string) => string;
  state: FormState | undefined;
  inviting: boolean;
  onInviting: (inviting: boolean) => void;
  /** The invitation's language to start with (a contact message's); else the console's. */
  locale?: Locale | undefined;
}) {
  const { t, locale: uiLocale } = useI18n();
  const locale = chosen ?? uiLocale;
  return (
    <>
      <div className="field field-check">
        <input
          id={fieldId('invite')}
          name="invite"
          type="checkbox"
          checked={inviting}
          onChange={(event) => onInviting(event.target.checked)}
          aria-describedby={`${fieldId('invite')}-hint`}
        />
        <label htmlFor={fieldId('invite')}>{t('adminConsole.create.invite')}</label>
        <p className="field-hint" id={`${fieldId('invite')}-hint`}>
          {t('adminConsole.create.inviteHint')}
        </p>
      </div>
      {inviting ? (
        <Field id={fieldId('locale')} label={t('adminConsole.create.inviteLocale')} state={state} field="locale">
          {(props) => (
            <select {...props} name="locale" defaultValue={locale}>
              {LOCALES.map((option) => (
                <option key={option.code} value={option.code}>
                  {option.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      ) : (
        <Field
          id={fieldId('password')}
          label={t('adminConsole.create.password')}
          state={state}
          field="password"
          hint={t('adminConsole.create.passwordHint')}
        >
          {(props) => <input {...props} name="password" type="password" autoComplete="new-password" maxLength={PASSWORD_MAX_LENGTH} />}
        </Field>
      )}
    </>
  );
}
