import { useId, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { INBOX_MESSAGE_ANCHOR, type InboxPage } from '../../../shared/contact.ts';
import type { FormState } from '../../../shared/page-data.ts';
import { localePath } from '../../../shared/routes.ts';
import { AlertDialog } from '../../components/alert-dialog.tsx';
import { postForm } from '../../runtime/forms.ts';
import { useI18n } from '../../runtime/i18n.tsx';
import { usePageForm } from '../../runtime/use-page-form.ts';
import { InboxFeedback, InboxForm, type InboxFormTarget } from './inbox-form.tsx';
import type { InboxHref } from './inbox-text.ts';
import { subjectOf } from './inbox-text.ts';

/** Where "invite as client" opens the console's new-user form, filled in from the message (server/pages/admin-users.ts). */
export const INVITE_PARAM = 'invite';

/**
 * Archive (or take back), mark unread, invite as client, delete. Deleting asks first: an
 * AlertDialog with JavaScript; without it, the link opens the page with the question
 * (`&confirm=delete`) and its form.
 */
export function MessageActions({
  open,
  target,
  hrefOf,
  form,
}: {
  open: NonNullable<InboxPage['open']>;
  target: InboxFormTarget;
  hrefOf: InboxHref;
  form: FormState | undefined;
}) {
  const { t, locale } = useI18n();
  const { pathname } = useLocation();
  const { message } = open;
  const { view, page } = target;
  const subject = subjectOf(t, message);
  const forMessage = <span className="visually-hidden"> {t('adminInbox.detail.for', { subject, name: message.name })}</span>;
  const archived = message.status === 'archived';
  const [confirming, setConfirming] = useState(false);
  const deletion = usePageForm('delete', form);
  const id = useId();

  function confirmDelete() {
    setConfirming(false);
    const body = new URLSearchParams({ intent: 'delete', id: String(message.id), view, page: String(page) });
    void deletion.post(() => postForm(pathname, body));
  }

  return (
    <>
      {!open.confirmDelete && <InboxFeedback state={deletion.state} fieldless />}
      <div className="actions admin-inbox-actions">
        <InboxForm
          intent={archived ? 'unarchive' : 'archive'}
          target={target}
          initial={form}
          label={t(`adminInbox.detail.${archived ? 'unarchive' : 'archive'}`)}
        >
          {(_state, pending) => (
            <button className="button button-secondary button-small" type="submit" disabled={pending}>
              {t(`adminInbox.detail.${archived ? 'unarchive' : 'archive'}`)}
              {forMessage}
            </button>
          )}
        </InboxForm>
        <InboxForm intent="unread" target={target} initial={form} label={t('adminInbox.detail.markUnread')}>
          {(_state, pending) => (
            <button className="button button-secondary button-small" type="submit" disabled={pending}>
              {t('adminInbox.detail.markUnread')}
              {forMessage}
            </button>
          )}
        </InboxForm>
        <Link className="button button-secondary button-small" to={`${localePath('admin-users', locale)}?${INVITE_PARAM}=${message.id}`}>
          {t('adminInbox.detail.invite')}
          <span className="visually-hidden"> {t('adminInbox.detail.inviteFor', { name: message.name })}</span>
        </Link>
        <a
          className="button button-small admin-inbox-delete"
          href={`${hrefOf({ view, page, message: message.id, confirmDelete: true })}#${INBOX_MESSAGE_ANCHOR}`}
          aria-disabled={deletion.pending || undefined}
          onClick={(event) => {
            event.preventDefault();
            if (!deletion.pending) setConfirming(true);
          }}
        >
          {t('adminInbox.detail.delete')}
          {forMessage}
        </a>
      </div>

      {open.confirmDelete && !confirming && (
        <div className="notice admin-inbox-confirm" role="group" aria-labelledby={`${id}-confirm`}>
          <p id={`${id}-confirm`}>
            <strong>{t('adminInbox.deleteConfirmTitle', { subject })}</strong>
          </p>
          <p>{t('adminInbox.deleteConfirmText', { name: message.name, email: message.email })}</p>
          <InboxForm intent="delete" target={target} initial={form} label={t('adminInbox.deleteConfirm')} className="actions">
            {(_state, pending) => (
              <>
                <button className="button button-small admin-inbox-delete" type="submit" disabled={pending}>
                  {t('adminInbox.deleteConfirm')}
                </button>
                <Link className="button button-secondary button-small" to={target.action}>
                  {t('adminInbox.deleteCancel')}
                </Link>
              </>
            )}
          </InboxForm>
        </div>
      )}

      <AlertDialog
        open={confirming}
        title={t('adminInbox.deleteConfirmTitle', { subject })}
        confirmLabel={t('adminInbox.deleteConfirm')}
        cancelLabel={t('adminInbox.deleteCancel')}
        onConfirm={confirmDelete}
        onCancel={() => setConfirming(false)}
      >
        <p>{t('adminInbox.deleteConfirmText', { name: message.name, email: message.email })}</p>
      </AlertDialog>
    </>
  );
}
