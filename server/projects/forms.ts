// The forms of the private area's projects, posted to their pages (a new brief, a project's page,
// the expert's profile): without JavaScript a 303 back to the page (or the page again with the
// error and what was typed), with it a JSON FormResponse. The same services and rules as the
// API; the user is the session's, as they are now.
import type { Request, Response } from 'express';
import { idOf } from '../../shared/paging.ts';
import { asksAboutOpenMilestones, needsConfirmation, projectPath, type ProjectAction } from '../../shared/projects.ts';
import { routePath, type Route } from '../../shared/routes.ts';
import type { Session } from '../auth/session-cookie.ts';
import { redirectAfterPost, stringValues, type FormFailure } from '../http/form-answers.ts';
import { ApiError, BusyError, TooManyAttemptsError } from '../http/errors.ts';
import { isMultipart } from '../http/multipart.ts';
import type { Logger } from '../base/logger.ts';
import { projectId } from './access.ts';
import { QuotaExceededError } from './document-quotas.ts';
import type { DocumentUploads } from './document-upload.ts';
import type { ProjectServices } from './index.ts';
import { actionSchema, briefSchema, expertSchema, expertiseSchema, messageSchema, milestoneSchema, proposalSchema } from './schemas.ts';
import { parseForm } from '../http/form-fields.ts';

const BRIEF_FIELDS = ['title', 'description', 'practice', 'budget', 'wishedStart', 'deadline', 'organisation', 'procurementRef'];

/** Form fields are strings: '' is "not given". */
function optional(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

type ProjectFormDeps = { services: ProjectServices; uploads: DocumentUploads; fail: FormFailure; logger: Logger };

/** A form's failure answered: the page again with the refusal (or a 500, logged), with what was typed. */
async function failWith(deps: ProjectFormDeps, req: Request, res: Response, form: string, error: unknown, values: Record<string, string>) {
  // A 503 for a cap (uploads_busy) is a refusal to show like the others, with the wait it asks.
  if (error instanceof ApiError && (error.status < 500 || error instanceof BusyError)) {
    return deps.fail(req, res, error.status, {
      form,
      values,
      error: {
        code: error.code,
        message: error.message,
        ...(error.fields ? { fields: error.fields } : {}),
        ...(error instanceof TooManyAttemptsError || error instanceof BusyError ? { retryAfter: error.retryAfter } : {}),
        ...(error instanceof QuotaExceededError ? { params: error.params } : {}),
      },
    });
  }
  deps.logger.error({ err: error, form }, 'project form failed');
  return deps.fail(req, res, 500, { form, values, error: { code: 'internal', message: 'Internal error' } });
}

export function createProjectForms(deps: ProjectFormDeps) {
  const { projects, conversation, expertise } = deps.services;

  async function newBrief(req: Request, res: Response, route: Route, session: Session) {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const values = stringValues(body, BRIEF_FIELDS);
    try {
      const brief = parseForm(briefSchema, {
        title: body.title ?? '',
        description: body.description ?? '',
        practice: optional(body.practice) ?? '',
        budget: optional(body.budget),
        wishedStart: optional(body.wishedStart),
        deadline: optional(body.deadline),
        organisation: optional(body.organisation),
        procurementRef: optional(body.procurementRef),
      });
      const project = await projects.create(session.user, brief);
      redirectAfterPost(
        req,
        res,
        `${projectPath(session.user.role, project.id, route.locale) ?? routePath('index', route)}?done=created#project-notice`,
        'created',
      );
    } catch (error) {
      await failWith(deps, req, res, 'brief', error, values);
    }
  }

  /** One of the forms of a project's page, told apart by its `intent`. */
  async function projectPage(req: Request, res: Response, session: Session) {
    const actor = session.user;
    const body = (req.body ?? {}) as Record<string, unknown>;
    let intent = typeof body.intent === 'string' ? body.intent : '';
    const back = (done: string, anchor: string) => `${req.path}?done=${done}#${anchor}`;
    let values: Record<string, string> = {};
    try {
      const id = projectId(req.path.split('/').pop());
      if (isMultipart(req)) {
        // One turn of the process's uploads, then admitted, read and stored as the API's are.
        intent = 'document';
        await deps.uploads.receive(actor, id, req, res);
        return redirectAfterPost(req, res, back('document', 'documents-title'), 'document');
      }
      switch (intent) {
        case 'action': {
          const { action } = parseForm(actionSchema, { action: body.action }) as { action: ProjectAction };
          // Not confirmed yet (no JavaScript, or a form from elsewhere): the page asks, restating the terms.
          // Open milestones are counted only for the moves that ask about them.
          const open = asksAboutOpenMilestones(action) ? await projects.openMilestoneCount(actor, id) : 0;
          if (body.confirmed !== 'yes' && needsConfirmation(action, open))
            return redirectAfterPost(req, res, `${req.path}?confirm=${action}#confirm-title`, 'confirm');
          // The version the page showed: an answer to one that was replaced meanwhile is refused.
          const version = typeof body.version === 'string' && /^[1-9][0-9]{0,5}$/.test(body.version) ? Number(body.version) : undefined;
          await projects.act(actor, id, action, undefined, { version, ip: req.ip ?? null });
          return redirectAfterPost(req, res, back(action, 'project-notice'), action);
        }
        case 'proposal': {
          values = stringValues(body, ['scope', 'fee', 'timeline']);
          const proposal = parseForm(proposalSchema, {
            scope: body.scope ?? '',
            fee: optional(body.fee) ?? '',
            timeline: body.timeline ?? '',
          });
          await projects.act(actor, id, 'send_proposal', proposal);
          return redirectAfterPost(req, res, back('proposal', 'project-notice'), 'proposal');
        }
        case 'assign': {
          const { userName } = parseForm(expertSchema, { userName: body.userName ?? '' });
          await projects.assignExpert(actor, id, userName);
          return redirectAfterPost(req, res, back('assign', 'experts-title'), 'assign');
        }
        case 'unassign': {
          const { userName } = parseForm(expertSchema, { userName: body.userName ?? '' });
          await projects.removeExpert(actor, id, userName);
          return redirectAfterPost(req, res, back('unassign', 'experts-title'), 'unassign');
        }
        case 'milestone': {
          values = stringValues(body, ['title', 'dueDate']);
          const milestone = parseForm(milestoneSchema, { title: body.title ?? '', dueDate: optional(body.dueDate) });
          await projects.addMilestone(actor, id, milestone);
          return redirectAfterPost(req, res, back('milestone', 'milestones-title'), 'milestone');
        }
        case 'milestoneDone': {
          // `<id>:done` or `<id>:reopen`; an id past what the database holds is no milestone (never a 500).
          const match = /^([^:]*):(done|reopen)$/.exec(typeof body.milestone === 'string' ? body.milestone : '');
          const milestoneId = idOf(match?.[1]);
          if (!match || milestoneId === null) throw new ApiError(400, 'invalid_request', 'Choose a milestone');
          await projects.setMilestoneDone(actor, id, milestoneId, match[2] === 'done');
          return redirectAfterPost(req, res, back('milestoneDone', 'milestones-title'), 'milestoneDone');
        }
        case 'deleteDocument': {
          const document = typeof body.document === 'string' ? body.document : '';
          values = { document: document.slice(0, 12) };
          const documentId = idOf(document);
          if (documentId === null) throw new ApiError(404, 'not_found', 'No such document');
          await conversation.deleteDocument(actor, id, documentId, { ip: req.ip ?? null });
          return redirectAfterPost(req, res, back('deleteDocument', 'documents-title'), 'deleteDocument');
        }
        case 'message': {
          values = stringValues(body, ['body']);
          const message = parseForm(messageSchema, { body: body.body ?? '' });
          await conversation.postMessage(actor, id, message.body);
          return redirectAfterPost(req, res, back('message', 'messages-title'), 'message');
        }
        default:
          throw new ApiError(400, 'invalid_request', 'This form is not one of the page');
      }
    } catch (error) {
      // A project the user may not see: the same 404 page as for one that does not exist.
      await failWith(deps, req, res, intent || 'project', error, values);
    }
  }

  async function expertProfile(req: Request, res: Response, route: Route, session: Session) {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const practices = ([] as unknown[]).concat(body.practices ?? []).filter((p): p is string => typeof p === 'string');
    const values = { ...stringValues(body, ['bio', 'dayRate', 'availability', 'busyUntil']), practices: practices.join(',') };
    try {
      const input = parseForm(expertiseSchema, {
        practices,
        bio: typeof body.bio === 'string' ? body.bio : '',
        dayRate: optional(body.dayRate) ?? null,
        availability: optional(body.availability) ?? 'available',
        busyUntil: optional(body.busyUntil),
      });
      await expertise.save(session.user, input);
      redirectAfterPost(req, res, `${routePath('expert', route)}?saved=expertise#expertise-title`, 'expertise');
    } catch (error) {
      await failWith(deps, req, res, 'expertise', error, values);
    }
  }

  return { newBrief, projectPage, expertProfile };
}

export type ProjectForms = ReturnType<typeof createProjectForms>;
