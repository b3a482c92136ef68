// The profile page's forms about the account, posted to /profile with an `intent` (with or
// without JavaScript, like every form of the site): end one other session, end all the others,
// ask for the account to be deleted (with the password), withdraw that request.
import type { Request, Response } from 'express';
import type { AccountIntent } from '../../shared/account.ts';
import { PASSWORD_MAX_LENGTH } from '../../shared/validation.ts';
import { routePath, type Route } from '../../shared/routes.ts';
import type { Audit } from '../audit/types.ts';
import type { Backend } from '../auth/backend.ts';
import type { CurrentPasswordGuard } from '../auth/login.ts';
import type { Session } from '../auth/session-cookie.ts';
import type { Sessions } from '../auth/session-store.ts';
import { redirectAfterPost, type FailWith, type FormFailure } from '../http/form-answers.ts';
import type { Deletions } from './deletion.ts';
import { sessionRef } from './session-list.ts';

export type ProfileFormDeps = {
  sessions: Sessions;
  /** Null when the accounts are not this site's (an external API): no deletion requests. */
  deletions: Deletions | null;
  backend: Backend;
  currentPasswordGuard: CurrentPasswordGuard;
  audit: Audit;
};

/** The profile after a done action: which one (the page says so) and where on the page. */
function profileAfter(route: Route, saved: string, anchor: string): string {
  return `${routePath('profile', route)}?saved=${saved}#${anchor}`;
}

export function createProfileForms(deps: ProfileFormDeps & { fail: FormFailure; failWith: FailWith }) {
  const { sessions, fail, failWith, audit } = deps;

  async function endSession(req: Request, res: Response, route: Route, session: Session) {
    const ref = typeof req.body?.session === 'string' ? req.body.session : '';
    const userName = session.user.userName;
    if (ref === sessionRef(session.id)) {
      return fail(req, res, 409, {
        form: 'sessions',
        error: { code: 'current_session', message: 'This is the session you are using: sign out to end it' },
      });
    }
    // Only a session the profile lists can be named by its form.
    const target = (await sessions.listOf(userName)).rows.find((row) => sessionRef(row.id) === ref);
    if (!target || !(await sessions.endOne(userName, target.id))) {
      return fail(req, res, 404, { form: 'sessions', error: { code: 'session_not_found', message: 'That session has already ended' } });
    }
    await audit.record({ action: 'session_ended', actor: userName, ip: req.ip ?? null, detail: { ip: target.ip } });
    redirectAfterPost(req, res, profileAfter(route, 'sessionEnded', 'sessions-title'), 'sessionEnded');
  }

  async function endOtherSessions(req: Request, res: Response, route: Route, session: Session) {
    const userName = session.user.userName;
    const others = await sessions.endAllOf(userName, session.id);
    await audit.record({ action: 'sessions_ended', actor: userName, ip: req.ip ?? null, detail: { count: others } });
    redirectAfterPost(req, res, profileAfter(route, 'sessionsEnded', 'sessions-title'), 'sessionsEnded');
  }

  async function requestDeletion(req: Request, res: Response, route: Route, session: Session, deletions: Deletions) {
    const password = typeof req.body?.currentPassword === 'string' ? req.body.currentPassword : '';
    if (!password || password.length > PASSWORD_MAX_LENGTH) {
      return fail(req, res, 422, {
        form: 'deletion',
        error: {
          code: 'invalid_request',
          message: 'Type your password to confirm',
          fields: { currentPassword: password ? 'validation.tooLong' : 'validation.required' },
        },
      });
    }
    const userName = session.user.userName;
    try {
      // A wrong password is a guess like any other: counted, and limited per account and address.
      await deps.currentPasswordGuard(req, userName, () => deps.backend.checkPassword(session.token, password));
      if (await deletions.request(userName)) {
        await audit.record({ action: 'deletion_requested', actor: userName, ip: req.ip ?? null, detail: { request: 'made' } });
      }
      redirectAfterPost(req, res, profileAfter(route, 'deletionRequested', 'deletion-title'), 'deletionRequested');
    } catch (error) {
      await failWith(req, res, 'deletion', error, {});
    }
  }

  async function withdrawDeletion(req: Request, res: Response, route: Route, session: Session, deletions: Deletions) {
    const userName = session.user.userName;
    if (await deletions.withdraw(userName)) {
      await audit.record({ action: 'deletion_requested', actor: userName, ip: req.ip ?? null, detail: { request: 'withdrawn' } });
    }
    redirectAfterPost(req, res, profileAfter(route, 'deletionWithdrawn', 'deletion-title'), 'deletionWithdrawn');
  }

  return async function handle(intent: AccountIntent, req: Request, res: Response, route: Route, session: Session): Promise<void> {
    switch (intent) {
      case 'endSession':
        return endSession(req, res, route, session);
      case 'endOtherSessions':
        return endOtherSessions(req, res, route, session);
      default: {
        if (!deps.deletions) {
          return fail(req, res, 404, {
            form: 'deletion',
            error: { code: 'not_found', message: 'Accounts are kept by the external API: ask its operator to delete yours' },
          });
        }
        return intent === 'requestDeletion'
          ? requestDeletion(req, res, route, session, deps.deletions)
          : withdrawDeletion(req, res, route, session, deps.deletions);
      }
    }
  };
}

export type ProfileForms = ReturnType<typeof createProfileForms>;
