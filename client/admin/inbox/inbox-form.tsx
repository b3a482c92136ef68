// One form of the inbox's message: posted to the page with its intent, the message and where the
// admin was (view and page), answered as JSON with JavaScript (the page is read again) or with a
// 303 and the page again without it. Its `action` is the page's address with the message open,
// so that a refusal without JavaScript comes back with the message and what was typed.
import type { ReactNode } from 'react';
import type { InboxView } from '../../../shared/contact.ts';
import type { FormState } from '../../../shared/page-data.ts';
import { FormFeedback } from '../../components/form-feedback.tsx';
import { useI18n } from '../../runtime/i18n.tsx';
import { usePageForm } from '../../runtime/use-page-form.ts';

export type InboxFormTarget = { id: number; view: InboxView; page: number; action: string };

/** The inbox's own words for a refusal (a message gone, no mail server), else the site's. */
export function InboxFeedback({ state, fieldless }: { state: FormState | undefined; fieldless: boolean }) {
  const { t } = useI18n();
  const code = state?.error?.code;
  const key = `adminInbox.errors.${code}`;
  const own = code ? t(key) : key;
  if (own !== key) {
    return (
      <p className="form-error" role="alert">
        {own}
      </p>
    );
  }
  return <FormFeedback state={state} fieldless={fieldless} />;
}

export function InboxForm({
  intent,
  target,
  initial,
  label,
  className,
  fieldless = true,
  children,
}: {
  intent: string;
  target: InboxFormTarget;
  /** The page's form state (a refusal without JavaScript). */
  initial: FormState | undefined;
  label: string;
  className?: string;
  fieldless?: boolean;
  children: (state: FormState | undefined, pending: boolean) => ReactNode;
}) {
  const { state, pending, onSubmit } = usePageForm(intent, initial);
  return (
    <>
      <InboxFeedback state={state} fieldless={fieldless} />
      <form
        className={className}
        method="post"
        action={target.action}
        noValidate
        onSubmit={onSubmit}
        aria-busy={pending}
        aria-label={label}
      >
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="id" value={target.id} />
        <input type="hidden" name="view" value={target.view} />
        <input type="hidden" name="page" value={target.page} />
        {children(state, pending)}
      </form>
    </>
  );
}
