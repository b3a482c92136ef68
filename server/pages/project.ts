// A project's page, under each area: for its participants only (anyone else: the plain 404
// page, the same as for an id that does not exist). Its forms: server/projects/forms.ts.
import { DOCUMENTS_PAGE_PARAM } from '../../shared/projects.ts';
import { hasRole } from '../../shared/user.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { projectId } from '../projects/access.ts';
import { requireSession, type PageAction, type PageLoader } from '../render/page-module.ts';

/** The page of the documents' list in the URL (`documents`, 1 = the newest); anything else is the first. */
function documentsPage(query: URLSearchParams): number {
  const raw = query.get(DOCUMENTS_PAGE_PARAM) ?? '';
  return /^[1-9][0-9]{0,4}$/.test(raw) ? Number(raw) : 1;
}

export const loader = (async (args) => {
  const actor = requireSession(args).user;
  const { projects, conversation, expertise } = args.services.projects;
  try {
    const id = projectId(args.params.id);
    // The project decides the page (its participants only: anyone else gets the 404 page)…
    const project = await projects.get(actor, id);
    // …its conversation streams when the database is slow (reading it reads the thread: its unread count falls).
    const messages = conversation.messages(actor, id);
    const candidates = hasRole(actor, 'ADMIN') ? await expertise.experts(actor) : null;
    // The newest documents, or older ones (`?documents=2`: "show older", a plain link).
    const documents = await conversation.documents(actor, id, { page: documentsPage(args.query) });
    // The page carries that page of documents only, not every one the project has.
    return {
      data: { project: { ...project, unread: 0, documents: documents.items }, messages, candidates, documents },
      meta: { title: project.title },
    };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw notFound();
    throw error;
  }
}) satisfies PageLoader;

export const action: PageAction = async ({ req, res, session, services }) => {
  if (session) await services.forms.projects.projectPage(req, res, session);
};
