// Change password: the current password (a wrong one is a counted guess), then the new one's rules.
import { z } from 'zod';
import { routePath } from '../../shared/routes.ts';
import { PASSWORD_MAX_LENGTH, passwordProblem } from '../../shared/validation.ts';
import { ApiError } from '../http/errors.ts';
import { redirectAfterPost } from '../http/form-answers.ts';
import { fieldErrors } from '../http/form-fields.ts';
import { noData, type PageAction } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'audit' | 'backend' | 'currentPasswordGuard' | 'sessions'>;

export const loader = noData;

// Only the shape here: the new password's rules are judged after the current password
// (passwordProblem covers its length), so that a guess is always answered as a guess.
const passwordForm = z.object({
  currentPassword: z.string().min(1, 'validation.required').max(PASSWORD_MAX_LENGTH, 'validation.tooLong'),
  newPassword: z.string(),
  confirmPassword: z.string(),
});

export const action: PageAction<Uses> = async ({ req, res, route, session, services, fail, failWith }) => {
  if (!session) return;
  const parsed = passwordForm.safeParse(req.body ?? {});
  if (!parsed.success) {
    return fail(req, res, 422, {
      form: 'changePassword',
      error: { code: 'invalid_request', message: 'Check the highlighted fields', fields: fieldErrors(parsed.error) },
    });
  }
  const { currentPassword, newPassword, confirmPassword } = parsed.data;
  const problem = passwordProblem(newPassword, session.user.userName);
  const fields: Record<string, string> = {};
  if (problem) fields.newPassword = problem;
  if (newPassword !== confirmPassword) fields.confirmPassword = 'validation.passwordsDiffer';
  try {
    // The current password first, whatever the new one: a wrong one is a counted guess and its
    // answer; only a right one lets the new password be judged (and then nothing is counted).
    const { token } = await services.currentPasswordGuard(req, session.user.userName, async () => {
      if (Object.keys(fields).length === 0) return services.backend.changePassword(session.token, currentPassword, newPassword);
      await services.backend.checkPassword(session.token, currentPassword);
      throw new ApiError(422, 'invalid_password', 'Check the highlighted fields', fields);
    });
    await services.sessions.refresh(session, token);
    await services.audit.record({ action: 'password_changed', actor: session.user.userName, ip: req.ip ?? null, detail: { via: 'form' } });
    redirectAfterPost(req, res, `${routePath('changePassword', route)}?saved=password`, 'password');
  } catch (error) {
    await failWith(req, res, 'changePassword', error, {});
  }
};
