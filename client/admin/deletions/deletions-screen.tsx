// The admin console's account deletion requests: who asked and when; an admin confirms (the
// account is erased: their messages stay as "Deleted user", their projects stay) or refuses
// (the user sees it on their profile), each after an AlertDialog. The list is fetched in the
// browser once the page runs, a page at a time (oldest first).
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import type { DeletionRequestItem } from '../../../shared/account.ts';
import { AlertDialog } from '../../components/alert-dialog.tsx';
import { useI18n } from '../../runtime/i18n.tsx';
import type { ApiFailure } from '../api.ts';
import type { AdminScreenProps } from '../screen.ts';
import { failureText, fullName } from '../text.ts';
import { useHydrated } from '../../runtime/use-hydrated.ts';
import { Pager } from '../../components/pager.tsx';
import { pageCount } from '../use-paged-list.ts';
import { confirmDeletion, fetchDeletionRequests, refuseDeletion, type DeletionRequestPage } from './deletions-api.ts';
import { DeletionsTable, type DecisionKind } from './deletions-table.tsx';

type Decision = { kind: DecisionKind; request: DeletionRequestItem };

export function DeletionsScreen({ headingId, user }: AdminScreenProps) {
  const { t } = useI18n();
  const hydrated = useHydrated();
  const [list, setList] = useState<DeletionRequestPage | null>(null);
  const items = list?.items ?? null;
  const total = list?.total ?? 0;
  // The first load starts with the page in the browser (see the effect below).
  const [loading, setLoading] = useState(true);
  const [failure, setFailure] = useState<ApiFailure | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [decision, setDecision] = useState<Decision | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [working, setWorking] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);

  function show(answer: Awaited<ReturnType<typeof fetchDeletionRequests>>) {
    setLoading(false);
    if (answer.ok) setList(answer.value);
    else setFailure(answer.error);
  }

  async function load(page = list?.page ?? 1) {
    setLoading(true);
    let answer = await fetchDeletionRequests(page);
    // The last requests of the last page were decided: the page before it.
    if (answer.ok && answer.value.items.length === 0 && page > 1) {
      answer = await fetchDeletionRequests(Math.max(1, Math.ceil(answer.value.total / answer.value.pageSize)));
    }
    show(answer);
  }

  const onLoaded = useEffectEvent(show);
  useEffect(() => {
    let live = true;
    void fetchDeletionRequests().then((answer) => {
      if (live) onLoaded(answer);
    });
    return () => {
      live = false;
    };
  }, []);

  function ask(kind: DecisionKind, request: DeletionRequestItem) {
    if (working) return;
    setFailure(null);
    setNotice(null);
    setDecision({ kind, request });
    setConfirming(true);
  }

  async function decide() {
    const chosen = decision;
    setConfirming(false);
    if (!chosen || working) return;
    setWorking(true);
    const { userName } = chosen.request;
    const answer = chosen.kind === 'confirm' ? await confirmDeletion(userName) : await refuseDeletion(userName);
    setWorking(false);
    if (!answer.ok) setFailure(answer.error);
    else setNotice(t(chosen.kind === 'confirm' ? 'adminDeletions.deleted' : 'adminDeletions.refusedDone', { userName }));
    // The row and its buttons are gone (or stale): the focus goes to the section's heading.
    headingRef.current?.focus();
    await load();
  }

  return (
    <section className="admin-section admin-deletions" aria-labelledby={headingId}>
      <h2 id={headingId} ref={headingRef} tabIndex={-1}>
        {t('adminDeletions.title')}
        {total > 0 && (
          <>
            {' '}
            <span className="badge badge-new">{total}</span>
          </>
        )}
      </h2>
      <p className="section-lead">{t('adminDeletions.lead')}</p>
      <p className="admin-summary" role="status">
        {!hydrated
          ? t('adminDeletions.needsScript')
          : loading
            ? t('adminDeletions.loading')
            : items === null
              ? null
              : total === 0
                ? t('adminDeletions.empty')
                : t('adminDeletions.count', { count: total })}
      </p>
      {notice && (
        <p className="form-success admin-notice" role="status">
          {notice}
        </p>
      )}
      {failure && (
        <p className="form-error" role="alert">
          {failureText(t, failure, 'adminDeletions.errors')}
        </p>
      )}
      {items && items.length > 0 && (
        <div className="table-wrap" aria-busy={loading || working}>
          <DeletionsTable items={items} user={user} enabled={hydrated && !working} onAsk={ask} />
        </div>
      )}
      {list && list.total > list.pageSize && (
        <Pager
          messages="adminDeletions.pager"
          page={list.page}
          pages={pageCount(list)}
          disabled={!hydrated || loading || working}
          onGo={(page) => {
            setFailure(null);
            void load(page);
          }}
        />
      )}
      {decision && (
        <AlertDialog
          open={confirming}
          title={t(`adminDeletions.${decision.kind}Title`, { userName: decision.request.userName })}
          confirmLabel={t(decision.kind === 'confirm' ? 'adminDeletions.confirm' : 'adminDeletions.refuse')}
          cancelLabel={t('adminConsole.confirm.cancel')}
          onConfirm={() => void decide()}
          onCancel={() => setConfirming(false)}
        >
          <p>
            {t(`adminDeletions.${decision.kind}Text`, {
              userName: decision.request.userName,
              name: fullName(decision.request) || decision.request.userName,
            })}
          </p>
        </AlertDialog>
      )}
    </section>
  );
}
