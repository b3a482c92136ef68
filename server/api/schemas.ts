// The shapes the built-in API accepts, checked at the edge (zod): a bad value is a 400 naming it,
// and so is a key a body does not have (every body is strict: docs/openapi.json says
// `additionalProperties: false` of each).
import { z } from 'zod';
import { numberedPageQuery } from '../http/paging.ts';
import { oneLine } from '../http/one-line.ts';
import { HEX_COLOR } from '../../shared/branding.ts';
import { identityProblem } from '../../shared/identity.ts';
import { COMPANY_NAME_MAX_LENGTH } from '../../shared/company.ts';
import { CONTACT_STATUSES, REPLY_MAX_LENGTH } from '../../shared/contact.ts';
import { ROLES, SCOPES } from '../../shared/user.ts';
import { LOCALE_CODES, type Locale } from '../../shared/locales.ts';
import { SEARCH_MAX_LENGTH } from '../../shared/paging.ts';
import { CODE_INPUT_MAX_LENGTH } from '../../shared/two-factor.ts';
import {
  EMAIL_MAX_LENGTH,
  isEmailAddress,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  USER_NAME_PATTERN,
  USER_NAME_RULE,
} from '../../shared/validation.ts';

/** A person's name or last name: one plain line (http/one-line.ts). */
export const name = oneLine().min(1, 'is required').max(NAME_MAX_LENGTH);
/** A new user name or e-mail address must not pass for another: the 400 names the character (shared/identity.ts). */
const noLookAlike = (value: string, context: z.RefinementCtx) => {
  const problem = identityProblem(value);
  if (problem) context.addIssue({ code: 'custom', message: problem });
};
export const loginBody = z
  .object({
    identifier: z.string().trim().min(1, 'is required').max(EMAIL_MAX_LENGTH),
    password: z.string().min(1, 'is required').max(PASSWORD_MAX_LENGTH),
    /** The second factor of a user with 2FA: the app's 6-digit code or a recovery code. */
    code: z.string().trim().max(CODE_INPUT_MAX_LENGTH).optional(),
  })
  .strict();
export const profileBody = z.object({ name, lastName: name }).strict();
export const passwordBody = z
  .object({
    currentPassword: z.string().min(1, 'is required').max(PASSWORD_MAX_LENGTH),
    newPassword: z.string().max(PASSWORD_MAX_LENGTH),
  })
  .strict();
/** A user's scopes (docs/decisions/053): the site's own, each at most once; an unknown one is named in the 400. */
const scopeList = z
  .array(z.enum(SCOPES, { error: (issue) => `${JSON.stringify(issue.input)} is not a scope: use ${SCOPES.join(', ')}` }))
  .max(SCOPES.length)
  .refine((scopes) => new Set(scopes).size === scopes.length, 'names a scope twice');
export const newUserBody = z
  .object({
    userName: z.string().trim().superRefine(noLookAlike).regex(USER_NAME_PATTERN, `must be ${USER_NAME_RULE}`),
    email: z
      .string()
      .trim()
      .max(EMAIL_MAX_LENGTH)
      .superRefine(noLookAlike)
      .refine(isEmailAddress, 'must be one e-mail address such as ana@example.com')
      .nullish(),
    name,
    lastName: name,
    role: z.enum(ROLES),
    password: z.string().max(PASSWORD_MAX_LENGTH).optional(),
    scope: scopeList.optional(),
    /** No password: the user gets an e-mail to choose one (server/account-links/). */
    invite: z.boolean().optional(),
    /** The language of the invitation (and of the user's e-mails until they use the site). */
    locale: z.enum(LOCALE_CODES as [Locale, ...Locale[]]).optional(),
    /** A client's or organisation's new company, by its name (else one named after them). */
    companyName: oneLine().min(1, 'is required').max(COMPANY_NAME_MAX_LENGTH).optional(),
  })
  .strict();
/** An admin's new user: a company of their own is for a client or an organisation only. */
export const adminNewUserBody = newUserBody.refine((b) => b.companyName === undefined || b.role === 'CLI' || b.role === 'ORG', {
  message: 'is for clients and organisations only',
  path: ['companyName'],
});
export const updateUserBody = z
  .object({ role: z.enum(ROLES).optional(), disabled: z.boolean().optional(), scope: scopeList.optional() })
  .strict()
  .refine((b) => b.role !== undefined || b.disabled !== undefined || b.scope !== undefined, 'give role, disabled or scope');
export const resetPasswordBody = z.object({ password: z.string().max(PASSWORD_MAX_LENGTH).optional() }).strict();
export const brandingBody = z.object({ color: z.string().regex(HEX_COLOR, 'must be a hex colour such as #30B7BB').nullable() }).strict();
export const messagesQuery = z.object({
  ...numberedPageQuery('inbox').shape,
  unread: z.enum(['true', 'false']).optional(),
  /** One status, or `active` (not archived); every message without it. */
  status: z.enum(['active', ...CONTACT_STATUSES]).optional(),
});
export const messageUpdateBody = z
  .object({ read: z.boolean().optional(), archived: z.boolean().optional() })
  .strict()
  .refine((b) => b.read !== undefined || b.archived !== undefined, 'give read or archived');
export const replyBody = z.object({ text: z.string().trim().min(1).max(REPLY_MAX_LENGTH) }).strict();
export const listQuery = z.object({
  q: z.string().max(SEARCH_MAX_LENGTH).optional(),
  ...numberedPageQuery('users').shape,
});
export const deletionRequestsQuery = numberedPageQuery('deletionRequests');
