// A form of the two-factor pages, posted to the page's own URL as without JavaScript but
// answered as JSON. New recovery codes come back with the answer (`reveal`) and are handed to
// the page, which shows them once; any other success reads the page's data again.
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { FormState } from '../../shared/page-data.ts';
import { postForm } from '../runtime/forms.ts';
import { useI18n } from '../runtime/i18n.tsx';

export type Revealed = { success: string; codes: string[] };

export function useTwoFactorForm(name: string, initial: FormState | undefined, onReveal?: (revealed: Revealed) => void) {
  const { t } = useI18n();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [state, setState] = useState<FormState | undefined>(initial?.form === name && initial.error ? initial : undefined);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setPending(true);
    setState(undefined);
    try {
      const answer = await postForm(pathname, new FormData(form));
      if (!answer.ok) {
        setState({ ...answer.form, form: name });
        return;
      }
      form.reset();
      if (answer.reveal && onReveal) onReveal({ success: answer.success ?? '', codes: answer.reveal });
      else navigate(answer.redirect ?? pathname, { replace: true, state: { revalidate: Date.now() } });
    } catch {
      setState({ form: name, error: { code: 'network', message: t('formErrors.network') } });
    } finally {
      setPending(false);
    }
  }

  return { state, pending, onSubmit, action: pathname };
}
