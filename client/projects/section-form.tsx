// One small form of a project's page: posted to the page with its `intent`, answered as JSON with
// JavaScript (the page's data is read again) or with a 303 and the page again without it.
import type { ReactNode } from 'react';
import type { FormState } from '../../shared/page-data.ts';
import { FormFeedback } from '../components/form-feedback.tsx';
import { usePageForm } from '../runtime/use-page-form.ts';

export function SectionForm({
  intent,
  form,
  children,
  className = 'form',
  multipart = false,
  success,
  label,
  fieldless = false,
}: {
  intent: string;
  form: FormState | undefined;
  children: (state: FormState | undefined, pending: boolean) => ReactNode;
  className?: string;
  multipart?: boolean;
  /** Shown after this form succeeded (the page came back with ?done=intent). */
  success?: string | undefined;
  label?: string;
  /** Buttons only: the error is said in full above them (FormFeedback). */
  fieldless?: boolean;
}) {
  const { state, pending, onSubmit, action } = usePageForm(intent, form, { multipart });
  return (
    <>
      <FormFeedback state={state} successText={state ? undefined : success} fieldless={fieldless} />
      <form
        className={className}
        method="post"
        action={action}
        noValidate
        onSubmit={onSubmit}
        aria-busy={pending}
        aria-label={label}
        {...(multipart ? { encType: 'multipart/form-data' } : {})}
      >
        <input type="hidden" name="intent" value={intent} />
        {children(state, pending)}
      </form>
    </>
  );
}

/** The success text of a section when the page came back from its form. */
export function doneText(search: string, intent: string, text: string): string | undefined {
  return new URLSearchParams(search).get('done') === intent ? text : undefined;
}
