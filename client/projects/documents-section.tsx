// The project's documents: any participant uploads (PDF, images or office files; 10 MB, within
// their quota and the project's), every participant downloads, the uploader and admins delete
// (each document its own form, confirmed in a dialog when JavaScript runs). The newest come
// first, a page at a time ("show older" is a plain link). The download is the site's own route.
import { useRef, useState, type RefObject } from 'react';
import { Link, useLocation } from 'react-router-dom';
import type { FormState } from '../../shared/page-data.ts';
import { DOCUMENTS_PAGE_PARAM, mayDeleteDocument, type DocumentPage, type Project, type ProjectDocument } from '../../shared/projects.ts';
import type { SessionUser } from '../../shared/user.ts';
import { AlertDialog } from '../components/alert-dialog.tsx';
import { FieldError, FormFeedback, fieldProps } from '../components/form-feedback.tsx';
import { formatDate } from '../components/formatted-date.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { SectionForm } from './section-form.tsx';
import { usePageForm } from '../runtime/use-page-form.ts';
import { documentHref } from '../../shared/documents.ts';
import { formatBytes } from '../../shared/file-size.ts';

const ACCEPT = '.pdf,.png,.jpg,.jpeg,.webp,.docx,.xlsx,.pptx,.odt,.ods,.odp,.doc,.xls,.ppt';

/** The URL's query with the documents' page set (1: the newest, left out), the form's outcome dropped. */
function pageSearch(search: string, page: number): string {
  const params = new URLSearchParams(search);
  params.delete('done');
  if (page > 1) params.set(DOCUMENTS_PAGE_PARAM, String(page));
  else params.delete(DOCUMENTS_PAGE_PARAM);
  const query = params.toString();
  return query ? `?${query}` : '';
}

/**
 * One document's delete button, a form of its own (intent `deleteDocument`). With JavaScript the
 * first click asks (`onAsk`); the dialog's confirmation clicks it again, which posts.
 */
function DeleteDocumentForm({
  document,
  form,
  confirmedRef,
  onAsk,
}: {
  document: ProjectDocument;
  form: FormState | undefined;
  confirmedRef: RefObject<number | null>;
  onAsk: (document: ProjectDocument) => void;
}) {
  const { t } = useI18n();
  // A refusal shown with the page (without JavaScript) belongs to the form of its document.
  const mine = form?.values?.document === String(document.id) ? form : undefined;
  const { state, pending, onSubmit, action } = usePageForm('deleteDocument', mine);
  return (
    <>
      <form method="post" action={action} noValidate onSubmit={onSubmit} aria-busy={pending} className="document-delete">
        <input type="hidden" name="intent" value="deleteDocument" />
        <input type="hidden" name="document" value={document.id} />
        <button
          type="submit"
          className="button button-secondary button-small"
          data-document={document.id}
          disabled={pending}
          aria-label={t('projects.page.deleteDocumentLabel', { name: document.name })}
          onClick={(event) => {
            if (confirmedRef.current === document.id) {
              confirmedRef.current = null;
              return;
            }
            event.preventDefault();
            onAsk(document);
          }}
        >
          {t('projects.page.deleteDocument')}
        </button>
      </form>
      <FormFeedback state={state} fieldless />
    </>
  );
}

export function DocumentsSection({
  project,
  documents,
  user,
  nameOf,
  forms,
  success,
}: {
  project: Project;
  /** The page of documents shown (newest first). */
  documents: DocumentPage;
  user: Pick<SessionUser, 'role' | 'userName'> | null;
  /** A user name → the person's name (who uploaded a document). */
  nameOf: (userName: string) => string;
  forms: { document: FormState | undefined; deleteDocument: FormState | undefined };
  success: { document?: string | undefined; deleteDocument?: string | undefined };
}) {
  const { t, locale } = useI18n();
  const { search } = useLocation();
  const [asking, setAsking] = useState<ProjectDocument | null>(null);
  const confirmedRef = useRef<number | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const { items, total, page, pageSize } = documents;
  const first = (page - 1) * pageSize + 1;
  const hasOlder = page * pageSize < total;
  const deletable = (d: ProjectDocument) => project.writable && user !== null && mayDeleteDocument(user, d);
  // A refused deletion is shown beside its document's button; with no such button here, above the list.
  const refused = forms.deleteDocument?.error ? forms.deleteDocument : undefined;
  const orphan = refused && !items.some((d) => String(d.id) === refused.values?.document && deletable(d)) ? refused : undefined;
  return (
    <section aria-labelledby="documents-title" className="project-section">
      <h2 id="documents-title">{t('projects.page.documentsTitle')}</h2>
      <FormFeedback state={orphan} successText={orphan ? undefined : success.deleteDocument} fieldless />
      {total === 0 ? (
        <p className="empty-state">{t('projects.page.noDocuments')}</p>
      ) : items.length === 0 ? (
        <p className="empty-state">{t('projects.page.noDocumentsHere')}</p>
      ) : (
        <>
          {total > pageSize && (
            <p className="field-hint">{t('projects.page.documentsShown', { from: first, to: first + items.length - 1, total })}</p>
          )}
          <ul className="documents" ref={listRef}>
            {items.map((d) => (
              <li key={d.id}>
                <a href={documentHref('projectFile', locale, { id: project.id, docId: d.id })} download={d.name}>
                  {d.name}
                </a>
                <span className="field-hint">
                  {formatBytes(d.bytes, locale)} ·{' '}
                  {t('projects.page.uploadedBy', { name: nameOf(d.uploadedBy), date: formatDate(d.uploadedAt.slice(0, 10), locale) })}
                </span>
                {deletable(d) && (
                  <DeleteDocumentForm document={d} form={forms.deleteDocument} confirmedRef={confirmedRef} onAsk={setAsking} />
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      {(page > 1 || hasOlder) && (
        <nav className="documents-pages" aria-label={t('projects.page.documentsTitle')}>
          {page > 1 && <Link to={`${pageSearch(search, page - 1)}#documents-title`}>{t('projects.page.newerDocuments')}</Link>}
          {hasOlder && (
            <Link to={`${pageSearch(search, page + 1)}#documents-title`} rel="next">
              {t('projects.page.olderDocuments')}
            </Link>
          )}
        </nav>
      )}
      {project.writable && (
        <SectionForm intent="document" form={forms.document} multipart success={success.document} className="inline-form">
          {(state, pending) => (
            <>
              <div className="field">
                <label htmlFor="document-file">{t('projects.page.file')}</label>
                <input
                  id="document-file"
                  name="file"
                  type="file"
                  required
                  accept={ACCEPT}
                  aria-describedby="document-file-hint"
                  {...fieldProps(state, 'file', 'document-file')}
                />
                <FieldError state={state} field="file" id="document-file" />
              </div>
              <button type="submit" className="button button-primary" disabled={pending}>
                {t('projects.page.upload')}
              </button>
              {/* After the button, on a row of its own: the button lines up with the file input. */}
              <p id="document-file-hint" className="field-hint">
                {t('projects.page.fileHint')}
              </p>
            </>
          )}
        </SectionForm>
      )}
      <AlertDialog
        open={asking !== null}
        title={t('projects.confirm.deleteDocumentTitle')}
        confirmLabel={t('projects.confirm.deleteDocumentYes')}
        cancelLabel={t('projects.confirm.deleteDocumentNo')}
        onCancel={() => setAsking(null)}
        onConfirm={() => {
          const document = asking;
          setAsking(null);
          if (!document) return;
          confirmedRef.current = document.id;
          listRef.current?.querySelector<HTMLButtonElement>(`button[data-document="${document.id}"]`)?.click();
        }}
      >
        {asking && <p>{t('projects.confirm.deleteDocument', { name: asking.name })}</p>}
      </AlertDialog>
    </section>
  );
}
