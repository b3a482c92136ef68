import { useRef, useState, type RefObject } from 'react';
import { useI18n } from '../../runtime/i18n.tsx';
import { deleteMessage, setMessageRead, type ApiFailure, type ContactMessage, type MessageList } from '../api.ts';
import type { PagedList } from '../use-paged-list.ts';
import { subjectOf } from './inbox-text.ts';
import type { MessageWork } from './message-detail.tsx';

/**
 * The message open in the inbox and what is done with it: opening it marks it read; it can be
 * marked unread again, or deleted after a confirmation.
 */
export function useOpenMessage({
  inbox,
  headingRef,
  clear,
  setFailure,
  setNotice,
}: {
  inbox: PagedList<MessageList, boolean>;
  /** The inbox's heading: the focus goes there when the message's row is gone. */
  headingRef: RefObject<HTMLHeadingElement | null>;
  /** Clears the inbox's failure and notice. */
  clear: () => void;
  setFailure: (failure: ApiFailure) => void;
  setNotice: (notice: string) => void;
}) {
  const { t } = useI18n();
  // The open message, and a counter that asks its heading for the focus.
  const [selected, setSelected] = useState<ContactMessage | null>(null);
  const [detailFocus, setDetailFocus] = useState(0);
  const [working, setWorking] = useState<MessageWork | null>(null);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const opener = useRef<HTMLElement | null>(null);

  /** The row and the counts show a change at once; the reload then brings the page up to date. */
  function change(unreadDelta: number, rows: (items: ContactMessage[]) => ContactMessage[], removed = 0) {
    inbox.update((previous) => ({
      ...previous,
      total: Math.max(0, previous.total - removed),
      unread: Math.max(0, previous.unread + unreadDelta),
      items: rows(previous.items),
    }));
  }
  const replace = (updated: ContactMessage) => (items: ContactMessage[]) => items.map((item) => (item.id === updated.id ? updated : item));

  /** A failed action: the message, and for a message that is gone, the detail closes. */
  async function actionFailed(error: ApiFailure): Promise<void> {
    setFailure(error);
    if (error.code === 'message_not_found') {
      setSelected(null);
      opener.current = null;
      headingRef.current?.focus();
      await inbox.reload();
    }
  }

  async function open(message: ContactMessage, from: HTMLElement) {
    if (working) return;
    opener.current = from;
    setSelected(message);
    setDetailFocus((value) => value + 1);
    clear();
    if (message.read) return;
    setWorking('read');
    const answer = await setMessageRead(message.id, true);
    setWorking(null);
    if (!answer.ok) return actionFailed(answer.error);
    const updated = answer.value;
    setSelected((shown) => (shown?.id === updated.id ? updated : shown));
    change(-1, replace(updated));
    await inbox.reload();
  }

  function close() {
    const from = opener.current;
    opener.current = null;
    setSelected(null);
    // Back to the message's button in the list, when it is still there.
    if (from?.isConnected) from.focus();
    else headingRef.current?.focus();
  }

  async function markUnread() {
    const message = selected;
    if (!message || working) return;
    setWorking('unread');
    clear();
    const answer = await setMessageRead(message.id, false);
    setWorking(null);
    if (!answer.ok) return actionFailed(answer.error);
    const updated = answer.value;
    change(message.read ? 1 : 0, replace(updated));
    setNotice(t('adminInbox.markedUnread', { subject: subjectOf(t, updated), name: updated.name }));
    close();
    await inbox.reload();
  }

  function askDelete() {
    if (working) return;
    clear();
    setConfirmingDelete(true);
  }

  async function confirmDelete() {
    const message = selected;
    setConfirmingDelete(false);
    if (!message || working) return;
    setWorking('delete');
    clear();
    const answer = await deleteMessage(message.id);
    setWorking(null);
    if (!answer.ok) return actionFailed(answer.error);
    setSelected(null);
    opener.current = null;
    change(message.read ? 0 : -1, (items) => items.filter((item) => item.id !== message.id), 1);
    setNotice(t('adminInbox.deleted', { subject: subjectOf(t, message), name: message.name }));
    // The row and its button are gone: the focus goes to the inbox's heading.
    headingRef.current?.focus();
    await inbox.reload();
  }

  return {
    selected,
    detailFocus,
    working,
    confirmingDelete,
    open,
    close,
    markUnread,
    askDelete,
    confirmDelete,
    cancelDelete: () => setConfirmingDelete(false),
  };
}
