import { isEmailAddress, nameProblem, passwordProblem, USER_NAME_PATTERN } from '../../../shared/validation.ts';
import type { NewUserInput } from '../api.ts';

/** The browser's quick checks (the server enforces the same rules); message keys by field. */
export function newUserProblems(input: NewUserInput): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!USER_NAME_PATTERN.test(input.userName))
    problems.userName = input.userName ? 'adminConsole.create.userNameInvalid' : 'validation.required';
  // The browser's own check of type="email" lets through addresses the rule does not (ana@example).
  if (input.email !== undefined && !isEmailAddress(input.email)) problems.email = 'validation.invalidEmail';
  // An invitation goes to the user's address.
  if (input.invite && input.email === undefined) problems.email = 'validation.required';
  const name = nameProblem(input.name);
  if (name) problems.name = name;
  const lastName = nameProblem(input.lastName);
  if (lastName) problems.lastName = lastName;
  // A company is a client's or an organisation's.
  if (input.companyName !== undefined && input.role !== 'CLI' && input.role !== 'ORG')
    problems.companyName = 'adminConsole.create.companyNameRole';
  if (input.password !== undefined) {
    const password = passwordProblem(input.password, input.userName);
    if (password) problems.password = password;
  }
  return problems;
}
