// The one way a page's form is sent with JavaScript: posted to the page's own URL with the same
// fields as without JavaScript, answered as JSON. On success the page's data is read again (or
// the page the answer names is opened) with no reload; on failure the form shows the error and
// keeps what was typed; a network failure says so. Every form of the site goes through it.
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { FormResponse, FormState } from '../../shared/page-data.ts';
import { postForm, postMultipart } from './forms.ts';
import { useI18n } from './i18n.tsx';

export type FormSuccess = Extract<FormResponse, { ok: true }>;

export type PageFormOptions = {
  /** Sent as multipart/form-data (a file field), as the browser would without JavaScript. */
  multipart?: boolean;
  /** The server's rules checked first, for a quick answer: the refusal to show, or null to post. */
  check?: (data: FormData) => Omit<FormState, 'form'> | null;
  /** Where a success goes when the answer names no page (default: this page, read again). */
  fallback?: string;
  /** A success replaces this page in the history (default) or adds an entry (a sign-in, a message sent). */
  replace?: boolean;
  /** A success the page shows itself (new recovery codes): true, and nothing else happens. */
  onSuccess?: (answer: FormSuccess) => boolean;
};

/** What was typed in a form's text fields, to fill it again; never a password, code or token. */
function typedValues(data: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of data.entries()) if (typeof value === 'string' && !/password|code|token/i.test(key)) values[key] = value;
  return values;
}

export function usePageForm(name: string, initial: FormState | undefined, options: PageFormOptions = {}) {
  const { t } = useI18n();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [state, setState] = useState<FormState | undefined>(initial?.form === name ? initial : undefined);
  const [pending, setPending] = useState(false);

  /** Sends what `send` posts and shows its answer; `form` is emptied after a success. */
  async function post(send: () => Promise<FormResponse>, form?: HTMLFormElement, typed: Record<string, string> = {}) {
    setPending(true);
    setState(undefined);
    try {
      const answer = await send();
      if (!answer.ok) {
        setState({ ...answer.form, form: name });
        return;
      }
      form?.reset();
      if (options.onSuccess?.(answer)) return;
      navigate(answer.redirect ?? options.fallback ?? pathname, { replace: options.replace ?? true, state: { revalidate: Date.now() } });
    } catch {
      setState({ form: name, values: typed, error: { code: 'network', message: t('formErrors.network') } });
    } finally {
      setPending(false);
    }
  }

  async function submit(form: HTMLFormElement, submitter?: HTMLElement | null) {
    const data = new FormData(form, submitter ?? undefined);
    const refused = options.check?.(data);
    if (refused) {
      setState({ ...refused, form: name });
      return;
    }
    await post(() => (options.multipart ? postMultipart(pathname, data) : postForm(pathname, data)), form, typedValues(data));
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const native = event.nativeEvent as SubmitEvent;
    void submit(event.currentTarget, native.submitter);
  }

  return { state, setState, pending, onSubmit, submit, post, action: pathname };
}
