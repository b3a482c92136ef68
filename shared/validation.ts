// Rules used on both sides: the browser checks them for quick feedback, the server enforces
// them. Each returns a message key (locales/*/common.json → validation.*) or null.

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;
export const NAME_MAX_LENGTH = 80;
export const USER_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{1,39}$/;

/** Issue 3: at least 10 characters and not the user name. */
export function passwordProblem(password: string, userName: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return 'validation.passwordTooShort';
  if (password.length > PASSWORD_MAX_LENGTH) return 'validation.passwordTooLong';
  if (password.trim().toLowerCase() === userName.trim().toLowerCase()) return 'validation.passwordIsUserName';
  return null;
}

export function nameProblem(value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed) return 'validation.required';
  if (trimmed.length > NAME_MAX_LENGTH) return 'validation.tooLong';
  return null;
}
