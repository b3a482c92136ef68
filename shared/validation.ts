// Rules used on both sides: the browser checks them for quick feedback, the server enforces
// them. Each returns a message key (locales/*/common.json → validation.*) or null.
import { COMPANY_NAME_MAX_LENGTH } from './company.ts';

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;
export const NAME_MAX_LENGTH = 80;
/** The longest e-mail address (RFC 5321's 256-octet path, its angle brackets aside): every address field and check. */
export const EMAIL_MAX_LENGTH = 254;
export const USER_NAME_MIN_LENGTH = 2;
export const USER_NAME_MAX_LENGTH = 40;
/** A user name: a letter or digit, then letters, digits, dots, hyphens or underscores. */
export const USER_NAME_PATTERN = new RegExp(`^[A-Za-z0-9][A-Za-z0-9._-]{${USER_NAME_MIN_LENGTH - 1},${USER_NAME_MAX_LENGTH - 1}}$`);
/** USER_NAME_PATTERN in words, as the API's 400 says it. */
export const USER_NAME_RULE = `${USER_NAME_MIN_LENGTH}–${USER_NAME_MAX_LENGTH} letters, digits, dots, hyphens or underscores`;

/** A password: at least 10 characters and not the user name. */
export function passwordProblem(password: string, userName: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return 'validation.passwordTooShort';
  if (password.length > PASSWORD_MAX_LENGTH) return 'validation.passwordTooLong';
  if (password.trim().toLowerCase() === userName.trim().toLowerCase()) return 'validation.passwordIsUserName';
  return null;
}

// Line breaks and the other C0/C1 controls (and U+2028/U+2029), with the spaces around them;
// the bidirectional embeddings, overrides, isolates and marks.
// eslint-disable-next-line no-control-regex -- the control characters are what is replaced
const CONTROLS = / *[\u0000-\u001F\u007F-\u009F\u2028\u2029]+ */g;
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

/**
 * A person's name, a company's name or a title as one plain line, wherever one is taken (every
 * schema and form of such a field, the contact form, the ops CLI): each run of control characters
 * and line breaks becomes one space — a name is never a forged "BCC: …" line in an e-mail — and
 * the bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) are removed,
 * so a title ending "\u202Egnp.exe" cannot show as "exe.png". Trimming is left to the caller.
 */
export function singleLine(value: string): string {
  return value.replace(BIDI_CONTROLS, '').replace(CONTROLS, ' ');
}

export function nameProblem(value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed) return 'validation.required';
  if (trimmed.length > NAME_MAX_LENGTH) return 'validation.tooLong';
  return null;
}

export const CONTACT_LIMITS = {
  name: 100,
  email: EMAIL_MAX_LENGTH,
  company: COMPANY_NAME_MAX_LENGTH,
  subject: 150,
  message: 5000,
} as const;
export const MESSAGE_MIN_LENGTH = 10;

// One address and nothing else: a local part of letters, digits and . _ % + ' - (no dot at
// either end, none doubled), @, and a domain of dotted labels ending in a TLD of two or more
// letters. Nothing that could smuggle more into a mailto: link or a mail header: no ? & , ;
// whitespace, quotes, angle brackets or a second @.
const EMAIL =
  /^(?!\.)(?!.*\.\.)[\p{L}\p{N}._%+'-]{1,64}(?<!\.)@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+(?:\p{L}{2,63}|xn--[a-z0-9-]{1,59})$/u;

/** The rule for every e-mail address the site takes (contact form, users, settings). */
export function isEmailAddress(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL.test(value);
}

/** A mailto: link to one address with a subject, each part percent-encoded (RFC 6068). */
export function mailtoHref(email: string, subject: string): string {
  const at = email.lastIndexOf('@');
  const address = `${encodeURIComponent(email.slice(0, at))}@${encodeURIComponent(email.slice(at + 1))}`;
  return `mailto:${address}?subject=${encodeURIComponent(subject)}`;
}

/** The contact form's fields; the company is optional. */
export type ContactValues = { name: string; email: string; company?: string; subject: string; message: string; consent: boolean };

/** The field-level problems of the contact form, as message keys. */
export function contactProblems(values: ContactValues): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const field of ['name', 'email', 'subject', 'message'] as const) {
    const value = values[field].trim();
    if (!value) problems[field] = 'validation.required';
    else if (value.length > CONTACT_LIMITS[field]) problems[field] = 'validation.tooLong';
  }
  if ((values.company ?? '').trim().length > CONTACT_LIMITS.company) problems.company = 'validation.tooLong';
  if (!problems.email && !isEmailAddress(values.email.trim())) problems.email = 'validation.invalidEmail';
  if (!problems.message && values.message.trim().length < MESSAGE_MIN_LENGTH) problems.message = 'validation.messageTooShort';
  if (!values.consent) problems.consent = 'validation.consentRequired';
  return problems;
}
