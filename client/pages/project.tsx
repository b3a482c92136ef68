// A project's page, the same under every area: its brief, the next step, the
// proposal, experts, milestones, conversation, documents and history. What the reader may do
// comes from the server (`project.actions`, `standing`, `writable`); each form posts here.
import { useLocation } from 'react-router-dom';
import { Streamed } from '../components/streamed.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { ConversationSection } from '../projects/conversation-section.tsx';
import { DocumentsSection } from '../projects/documents-section.tsx';
import { ExpertsSection } from '../projects/experts-section.tsx';
import { HistorySection } from '../projects/history-section.tsx';
import { MilestonesSection } from '../projects/milestones-section.tsx';
import { projectNames } from '../projects/people.ts';
import { ProjectActions } from '../projects/project-actions.tsx';
import { ConfirmPanel, ProjectNotice } from '../projects/decisive-steps.tsx';
import { ProjectHeader } from '../projects/project-header.tsx';
import { ProposalSection } from '../projects/proposal-section.tsx';
import { doneText } from '../projects/section-form.tsx';
import type { LoaderData } from '../../shared/page-data.ts';
import type { CursorPage } from '../../shared/paging.ts';
import type { loader } from '../../server/pages/project.ts';
import type { PageProps } from '../runtime/page-chunks.ts';

/**
 * A list's page as the server gave it: another cursor starts its "Show older" afresh; the newest
 * page read again (a form's answer, a live update) is the same list, its new items on top
 * (older-pages.ts keeps what was shown below them, and the form what is being typed).
 */
function pageKey(page: CursorPage<{ id: number }>): string {
  return String(page.before ?? 'newest');
}

export default function ProjectPage({ data, user, form }: PageProps<LoaderData<typeof loader>>) {
  const { t } = useI18n();
  const { search } = useLocation();
  const { project, names, history, messages, candidates, expert, documents } = data;
  // The history and conversation may stream: the names of the page come with the project.
  const nameOf = projectNames(project, names, t('account.deletedUser'));
  const unavailable = (
    <p className="form-error" role="alert">
      {t('errors.unavailable')}
    </p>
  );
  const of = (name: string) => (form?.form === name ? form : undefined);
  const done = (intent: string, key: string) => doneText(search, intent, t(`projects.done.${key}`));
  return (
    <div className="container page project-page" key={project.id}>
      <ProjectHeader project={project} role={user?.role ?? ''} />
      <ProjectNotice />
      <ConfirmPanel project={project} />
      <ProjectActions project={project} form={of('action')} />
      <div className="project-columns">
        <div className="project-main">
          <Streamed value={messages} fallback={<p className="streamed-loading">{t('layout.loading')}</p>}>
            {(page) =>
              page ? (
                <ConversationSection
                  key={pageKey(page)}
                  project={project}
                  messages={page}
                  form={of('message')}
                  success={done('message', 'message')}
                />
              ) : (
                unavailable
              )
            }
          </Streamed>
          <DocumentsSection
            project={project}
            documents={documents}
            user={user}
            nameOf={nameOf}
            forms={{ document: of('document'), deleteDocument: of('deleteDocument') }}
            success={{ document: done('document', 'document'), deleteDocument: done('deleteDocument', 'deleteDocument') }}
          />
        </div>
        <div className="project-side">
          <ProposalSection project={project} form={of('proposal')} />
          <ExpertsSection
            project={project}
            candidates={candidates}
            search={expert}
            forms={{ assign: of('assign'), unassign: of('unassign') }}
            success={done('assign', 'expert') ?? done('unassign', 'expert')}
          />
          <MilestonesSection
            project={project}
            nameOf={nameOf}
            forms={{ milestone: of('milestone'), milestoneDone: of('milestoneDone') }}
            success={done('milestone', 'milestone') ?? done('milestoneDone', 'milestone')}
          />
          <Streamed value={history} fallback={<p className="streamed-loading">{t('layout.loading')}</p>}>
            {(page) => (page ? <HistorySection key={pageKey(page)} page={page} /> : unavailable)}
          </Streamed>
        </div>
      </div>
    </div>
  );
}
