// The project's thread: every participant reads and writes it while the project is open. A page
// at a time: the newest messages, "Show older" above them (older-pages.ts).
import type { FormState } from '../../shared/page-data.ts';
import { PROJECT_LIMITS, PROJECT_PAGE_PARAMS, type MessagePage, type Project } from '../../shared/projects.ts';
import { FieldError, fieldProps } from '../components/form-feedback.tsx';
import { personName } from '../../shared/account.ts';
import { formatMoment } from '../my-account/when.ts';
import { useI18n } from '../runtime/i18n.tsx';
import { useOlderPages, type OlderList } from './older-pages.ts';
import { SectionForm } from './section-form.tsx';

const MESSAGES: OlderList = { param: PROJECT_PAGE_PARAMS.messagesBefore, field: 'messages', anchor: 'messages-title' };

export function ConversationSection({
  project,
  messages,
  form,
  success,
}: {
  project: Project;
  messages: MessagePage;
  form: FormState | undefined;
  success?: string | undefined;
}) {
  const { t, locale } = useI18n();
  const { items, olderHref, newestHref, loading, failed, showOlder } = useOlderPages(messages, MESSAGES);
  // A thread reads oldest first: the page (newest first) turned over, older pages above it.
  const thread = [...items].reverse();
  return (
    <section aria-labelledby="messages-title" className="project-section">
      <h2 id="messages-title">{t('projects.page.messagesTitle')}</h2>
      {items.length < messages.total && (
        <p className="field-hint">{t('projects.page.shownOf', { shown: items.length, count: messages.total })}</p>
      )}
      {olderHref && (
        <p className="list-more">
          <a href={olderHref} onClick={(event) => void showOlder(event)} aria-disabled={loading || undefined}>
            {t('projects.page.showOlderMessages')}
          </a>
        </p>
      )}
      {failed && (
        <p className="form-error" role="alert">
          {t('projects.page.olderFailed')}
        </p>
      )}
      {messages.total === 0 ? (
        <p className="empty-state">{t('projects.page.noMessages')}</p>
      ) : (
        <ol className="thread" aria-busy={loading}>
          {thread.map((m) => (
            <li key={m.id} className="thread-message">
              <p className="thread-meta">
                <strong>{personName(t, m.author)}</strong> <span>{t(`roles.${m.author.role}`)}</span> ·{' '}
                <time dateTime={m.createdAt}>{formatMoment(m.createdAt, locale)}</time>
              </p>
              <p className="project-text">{m.body}</p>
            </li>
          ))}
        </ol>
      )}
      {newestHref && (
        <p className="list-more">
          <a href={newestHref}>{t('projects.page.showNewestMessages')}</a>
        </p>
      )}
      {project.writable && (
        <SectionForm intent="message" form={form} success={success}>
          {(state, pending) => (
            <>
              <div className="field">
                <label htmlFor="message-body">{t('projects.page.message')}</label>
                <textarea
                  id="message-body"
                  name="body"
                  rows={3}
                  required
                  maxLength={PROJECT_LIMITS.message}
                  defaultValue={state?.values?.body ?? ''}
                  {...fieldProps(state, 'body', 'message-body')}
                />
                <FieldError state={state} field="body" id="message-body" />
              </div>
              <button type="submit" className="button button-primary" disabled={pending}>
                {t('projects.page.send')}
              </button>
            </>
          )}
        </SectionForm>
      )}
    </section>
  );
}
