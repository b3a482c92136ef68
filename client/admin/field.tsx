import type { ReactNode } from 'react';
import type { FormState } from '../../shared/page-data.ts';
import { FieldError, fieldProps } from '../components/form-feedback.tsx';

type FieldInputProps = { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string };

/** A labelled field with an optional hint and its error under it, both tied to the input. */
export function Field({
  id,
  label,
  hint,
  state,
  field,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  state: FormState | undefined;
  field: string;
  children: (props: FieldInputProps) => ReactNode;
}) {
  const problem = fieldProps(state, field, id);
  const describedBy = [hint ? `${id}-hint` : null, problem['aria-describedby'] ?? null].filter(Boolean).join(' ');
  const props: FieldInputProps = { id };
  if (problem['aria-invalid']) props['aria-invalid'] = true;
  if (describedBy) props['aria-describedby'] = describedBy;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(props)}
      {hint && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <FieldError state={state} field={field} id={id} />
    </div>
  );
}
