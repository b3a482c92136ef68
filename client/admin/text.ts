// The console's words for what the API answers: failures, roles and names.
import type { AdminUser } from '../../shared/page-data.ts';
import type { Translate } from '../../shared/translate.ts';
import { waitPhrase } from '../../shared/wait.ts';
import type { ApiFailure } from './api.ts';

/**
 * The failure in the visitor's language: the screen's own text (`<scope>.<code>`, e.g.
 * adminInbox.errors), else the console's, the shared form errors', or the API's message.
 */
export function failureText(t: Translate, error: ApiFailure, scope?: string): string {
  for (const prefix of [scope, 'adminConsole.errors']) {
    if (!prefix) continue;
    const key = `${prefix}.${error.code}`;
    const text = t(key);
    if (text !== key) return text;
  }
  const shared = `formErrors.${error.code}`;
  const sharedText = t(shared, { wait: waitPhrase(t, error.retryAfter ?? 60) });
  return sharedText !== shared ? sharedText : error.message;
}

export function roleLabel(t: Translate, role: string): string {
  const key = `roles.${role}`;
  const label = t(key);
  return label === key ? role : label;
}

export function fullName(user: Pick<AdminUser, 'name' | 'lastName'>): string {
  return `${user.name} ${user.lastName}`.trim();
}
