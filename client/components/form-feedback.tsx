import type { InputHTMLAttributes } from 'react';
import type { FormState } from '../../shared/page-data.ts';
import { waitPhrase } from '../../shared/wait.ts';
import { useI18n } from '../runtime/i18n.tsx';

/** How many fields an error marks (`_` is the form's own, shown by no field). */
export function markedFields(error: FormState['error']): number {
  return Object.keys(error?.fields ?? {}).filter((field) => field !== '_').length;
}

/**
 * The form's overall error (role=alert, announced) or success (role=status). An error that marks
 * fields is said once, by each field: here only how many to correct (docs/decisions/038). A form that
 * shows no field (`fieldless`: buttons only) says the error itself.
 */
export function FormFeedback({
  state,
  successText,
  fieldless = false,
}: {
  state: FormState | undefined;
  successText?: string | undefined;
  fieldless?: boolean;
}) {
  const { t } = useI18n();
  if (state?.error) {
    const count = fieldless ? 0 : markedFields(state.error);
    const key = count ? 'formErrors.summary' : `formErrors.${state.error.code}`;
    const text = t(key, { count, wait: waitPhrase(t, state.error.retryAfter ?? 60), ...state.error.params });
    return (
      <p className="form-error" role="alert">
        {text === key ? state.error.message : text}
      </p>
    );
  }
  if (successText) {
    return (
      <p className="form-success" role="status">
        {successText}
      </p>
    );
  }
  return null;
}

/** Props of an input for its field's error: aria-invalid and aria-describedby. */
export function fieldProps(state: FormState | undefined, field: string, id: string) {
  const problem = state?.error?.fields?.[field];
  return problem ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {};
}

export function FieldError({ state, field, id }: { state: FormState | undefined; field: string; id: string }) {
  const { t } = useI18n();
  const problem = state?.error?.fields?.[field];
  if (!problem) return null;
  // A problem is one of the site's message keys; anything else (an API's own words) is not said.
  const text = t(problem);
  return (
    <p className="field-error" id={`${id}-error`}>
      {text === problem ? t('validation.invalid') : text}
    </p>
  );
}

/** A labelled input with its field error wired for assistive technology (`${form}-${name}` ids). */
export function TextField({
  form,
  state,
  name,
  label,
  ...input
}: { form: string; state: FormState | undefined; name: string; label: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = `${form}-${name}`;
  const problem = fieldProps(state, name, id);
  // A hint the caller names stays described with the error.
  const describedBy = [input['aria-describedby'], problem['aria-describedby']].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} {...input} {...problem} aria-describedby={describedBy} />
      <FieldError state={state} field={name} id={id} />
    </div>
  );
}
