import type { FormState } from '../../shared/page-data.ts';
import { CODE_INPUT_MAX_LENGTH } from '../../shared/two-factor.ts';
import { TextField } from '../components/form-feedback.tsx';
import { useI18n } from '../runtime/i18n.tsx';

/**
 * The field of a code: the authenticator's six digits or a recovery code (letters too, so not
 * a numeric keypad). The browser may fill it from a one-time code it received.
 */
export function CodeField({ form, state, label }: { form: string; state: FormState | undefined; label?: string }) {
  const { t } = useI18n();
  return (
    <TextField
      form={form}
      state={state}
      name="code"
      label={label ?? t('twoFactor.code')}
      type="text"
      autoComplete="one-time-code"
      autoCapitalize="off"
      spellCheck={false}
      required
      maxLength={CODE_INPUT_MAX_LENGTH}
    />
  );
}
