import { REPLY_MAX_LENGTH } from '../../../shared/contact.ts';
import type { FormState } from '../../../shared/page-data.ts';
import { FieldError, fieldProps } from '../../components/form-feedback.tsx';
import { useI18n } from '../../runtime/i18n.tsx';
import { InboxForm, type InboxFormTarget } from './inbox-form.tsx';

/** The reply: a text sent by e-mail to the sender (the message becomes answered). */
export function ReplyForm({
  target,
  initial,
  name,
  email,
}: {
  target: InboxFormTarget;
  initial: FormState | undefined;
  name: string;
  email: string;
}) {
  const { t } = useI18n();
  const fieldId = `inbox-reply-${target.id}`;
  return (
    <InboxForm
      intent="reply"
      target={target}
      initial={initial}
      label={t('adminInbox.reply.form')}
      className="form admin-inbox-reply-form"
      fieldless={false}
    >
      {(state, pending) => (
        <>
          <div className="field">
            <label htmlFor={fieldId}>{t('adminInbox.reply.label', { name })}</label>
            <textarea
              id={fieldId}
              name="text"
              rows={6}
              required
              maxLength={REPLY_MAX_LENGTH}
              defaultValue={state?.values?.text ?? ''}
              {...fieldProps(state, 'text', fieldId)}
              aria-describedby={[`${fieldId}-hint`, state?.error?.fields?.text ? `${fieldId}-error` : ''].filter(Boolean).join(' ')}
            />
            <p className="field-hint" id={`${fieldId}-hint`}>
              {t('adminInbox.reply.hint', { email })}
            </p>
            <FieldError state={state} field="text" id={fieldId} />
          </div>
          <div className="actions">
            <button className="button button-primary" type="submit" disabled={pending}>
              {pending ? t('adminInbox.reply.sending') : t('adminInbox.reply.submit')}
            </button>
          </div>
        </>
      )}
    </InboxForm>
  );
}
