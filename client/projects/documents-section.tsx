// The project's documents: any participant uploads (PDF, images, office files; 10 MB), every
// participant downloads. The download is the site's own route, decided by the session.
import type { FormState } from '../../shared/page-data.ts';
import type { Project } from '../../shared/projects.ts';
import { FieldError, fieldProps } from '../components/form-feedback.tsx';
import { formatDate } from '../components/formatted-date.tsx';
import { useI18n } from '../i18n.tsx';
import { SectionForm } from './section-form.tsx';

const ACCEPT = '.pdf,.png,.jpg,.jpeg,.webp,.docx,.xlsx,.pptx,.odt,.ods,.odp,.doc,.xls,.ppt';

function size(bytes: number, locale: string): string {
  const format = new Intl.NumberFormat(locale === 'en' ? 'en-US' : 'es-ES', { maximumFractionDigits: 1 });
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${format.format(bytes / 1024)} KB`;
  return `${format.format(bytes / 1024 / 1024)} MB`;
}

export function DocumentsSection({
  project,
  nameOf,
  form,
  success,
}: {
  project: Project;
  /** A user name → the person's name (who uploaded a document). */
  nameOf: (userName: string) => string;
  form: FormState | undefined;
  success?: string | undefined;
}) {
  const { t, locale } = useI18n();
  return (
    <section aria-labelledby="documents-title" className="project-section">
      <h2 id="documents-title">{t('projects.page.documentsTitle')}</h2>
      {project.documents.length === 0 ? (
        <p className="empty-state">{t('projects.page.noDocuments')}</p>
      ) : (
        <ul className="documents">
          {project.documents.map((d) => (
            <li key={d.id}>
              <a href={`/project-files/${project.id}/${d.id}`} download={d.name}>
                {d.name}
              </a>
              <span className="field-hint">
                {size(d.bytes, locale)} ·{' '}
                {t('projects.page.uploadedBy', { name: nameOf(d.uploadedBy), date: formatDate(d.uploadedAt.slice(0, 10), locale) })}
              </span>
            </li>
          ))}
        </ul>
      )}
      {project.writable && (
        <SectionForm intent="document" form={form} multipart success={success} className="inline-form">
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
    </section>
  );
}
