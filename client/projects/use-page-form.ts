// A form of the private area posted to its page's own URL, as without JavaScript, but answered
// as JSON: on success the page's data is read again (no reload), on failure the form shows the
// error and keeps what was typed.
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { FormState } from '../../shared/page-data.ts';
import { postForm, postMultipart } from '../runtime/forms.ts';
import { useI18n } from '../runtime/i18n.tsx';

export function usePageForm(name: string, initial: FormState | undefined, options: { multipart?: boolean } = {}) {
  const { t } = useI18n();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [state, setState] = useState<FormState | undefined>(initial?.form === name ? initial : undefined);
  const [pending, setPending] = useState(false);

  async function submit(form: HTMLFormElement, submitter?: HTMLElement | null) {
    setPending(true);
    setState(undefined);
    try {
      const data = new FormData(form, submitter ?? undefined);
      const answer = options.multipart ? await postMultipart(pathname, data) : await postForm(pathname, data);
      if (answer.ok) {
        form.reset();
        navigate(answer.redirect ?? pathname, { replace: true, state: { revalidate: Date.now() } });
      } else setState({ ...answer.form, form: name });
    } catch {
      setState({ form: name, error: { code: 'network', message: t('formErrors.network') } });
    } finally {
      setPending(false);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const native = event.nativeEvent as SubmitEvent;
    void submit(event.currentTarget, native.submitter);
  }

  return { state, pending, onSubmit, submit, action: pathname };
}
