// A project's page, under each area: for its participants only (anyone else: the plain 404
// page, the same as for an id that does not exist). Its forms: server/projects/forms.ts.
// Its history and conversation are pages (shared/paging.ts): the newest, or the one older than
// the URL's `historyBefore` / `messagesBefore`; its documents a numbered page (`documents`); the
// admin's candidates a page found by `expert`.
import { cursorOf, SEARCH_MAX_LENGTH } from '../../shared/paging.ts';
import { DOCUMENTS_PAGE_PARAM, PROJECT_PAGE_PARAMS } from '../../shared/projects.ts';
import { hasRole } from '../../shared/user.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { projectId } from '../projects/access.ts';
import { requireSession, type PageAction, type PageLoader } from '../render/page-module.ts';
import { streamed } from '../render/streamed.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'notifications' | 'projects'> & { forms: Pick<PageServices['forms'], 'projects'> };

/** The page of the documents' list in the URL (`documents`, 1 = the newest); anything else is the first. */
function documentsPage(query: URLSearchParams): number {
  const raw = query.get(DOCUMENTS_PAGE_PARAM) ?? '';
  return /^[1-9][0-9]{0,4}$/.test(raw) ? Number(raw) : 1;
}

export const loader = (async (args) => {
  const actor = requireSession(args).user;
  const { projects, conversation, expertise } = args.services.projects;
  const { query } = args;
  try {
    const id = projectId(args.params.id);
    // The project decides the page (its participants only: anyone else gets the 404 page)…
    const project = await projects.get(actor, id);
    // Opening a project reads what the bell said about it.
    await args.services.notifications?.markProjectRead(actor.userName, id);
    // …its history and conversation stream when the database is slow (reading the newest page
    // of the conversation reads the thread: its unread count falls).
    const history = streamed(projects.history(actor, id, { before: cursorOf(query.get(PROJECT_PAGE_PARAMS.historyBefore)) }));
    const messages = streamed(conversation.messages(actor, id, { before: cursorOf(query.get(PROJECT_PAGE_PARAMS.messagesBefore)) }));
    const expert = (query.get(PROJECT_PAGE_PARAMS.expert) ?? '').trim().slice(0, SEARCH_MAX_LENGTH);
    // The newest documents, or older ones (`?documents=2`: "show older", a plain link); the page
    // carries that page of documents only, not every one the project has.
    const [documents, candidates] = await Promise.all([
      conversation.documents(actor, id, { page: documentsPage(query) }),
      hasRole(actor, 'ADMIN') ? expertise.experts(actor, { rankFor: project.practice, notOn: id, q: expert || undefined }) : null,
    ]);
    const shown = { ...project, unread: 0, documents: documents.items };
    const names = await projects.namesOf(shown);
    return {
      data: { project: shown, names, history, messages, candidates, expert, documents },
      meta: { title: project.title },
    };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw notFound();
    throw error;
  }
}) satisfies PageLoader<unknown, Uses>;

export const action: PageAction<Uses> = async ({ req, res, session, services }) => {
  if (session) await services.forms.projects.projectPage(req, res, session);
};
