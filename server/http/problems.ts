// What a refused request is told (the API's 400 `invalid_request`): `message` is for people, one
// English sentence per problem, each naming the field and what is wrong with it, read from the
// issue itself (its bounds, its options, the type it wanted) rather than from the message a form
// translates; `fields` keeps what the schema said (a message key such as `validation.date` for
// the fields the page forms share, a phrase for the others). The API speaks English: it has no
// language of its own (docs/openapi.json, `Error`).
import type { z } from 'zod';

/** A custom rule's words for the API, beside its message key: `refine(rule, { message: 'validation.date', params: apiProblem('must be …') })`. */
export function apiProblem(problem: string): { problem: string } {
  return { problem };
}

export type Problem = { field: string; problem: string; fieldMessage: string };

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'null',
  date: 'a date',
  bigint: 'a whole number',
};

/** What a value is, as a person would say it: "a number", "a list", "null". */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'number') return Number.isNaN(value) ? 'not a number' : 'a number';
  if (typeof value === 'object') return 'an object';
  return TYPE_WORDS[typeof value] ?? typeof value;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** zod's own words ("Invalid input: expected string…") are not ours: only a schema's own phrase is said as it is. */
function ownPhrase(message: string): string | null {
  if (/^validation\./.test(message)) return null;
  if (/^(Invalid|Too (big|small)|Unrecognized)\b/.test(message)) return null;
  return message;
}

function quoted(values: readonly unknown[]): string {
  return values.map((value) => JSON.stringify(value)).join(', ');
}

function sizeProblem(
  issue: { origin?: string; minimum?: unknown; maximum?: unknown; inclusive?: boolean },
  bound: 'least' | 'most',
): string {
  const limit = Number(bound === 'least' ? issue.minimum : issue.maximum);
  const inclusive = issue.inclusive !== false;
  switch (issue.origin) {
    case 'string':
      if (bound === 'least' && limit === 1) return 'must not be empty';
      return `must have at ${bound} ${limit} character${limit === 1 ? '' : 's'}`;
    case 'array':
    case 'set':
      if (bound === 'least' && limit === 1) return 'must not be an empty list';
      return `must have at ${bound} ${limit} item${limit === 1 ? '' : 's'}`;
    default:
      if (inclusive) return `must be at ${bound} ${limit}`;
      return `must be ${bound === 'least' ? 'greater' : 'less'} than ${limit}`;
  }
}

/** The types the branches of a union wanted, when every branch failed on the type. */
function unionProblem(issue: z.core.$ZodIssueInvalidUnion, input: unknown): string | null {
  const branches = issue.errors;
  const typeOnly = branches.every(
    (errors) => errors.length === 1 && (errors[0]!.code === 'invalid_type' || errors[0]!.code === 'invalid_value'),
  );
  if (!typeOnly) {
    // One branch got past the type: its problem is the one to tell.
    const reached = branches.filter((errors) => errors.some((e) => e.code !== 'invalid_type' && e.code !== 'invalid_value'));
    const first = reached.length === 1 ? reached[0]![0] : undefined;
    return first ? problemOf(first as z.core.$ZodIssue, input) : null;
  }
  const wanted = branches.map((errors) => {
    const only = errors[0]!;
    if (only.code === 'invalid_type') return TYPE_WORDS[only.expected] ?? only.expected;
    return only.code === 'invalid_value' ? quoted(only.values) : 'valid';
  });
  return `must be ${[...new Set(wanted)].join(' or ')}, not ${kindOf(input)}`;
}

/** The problem of one issue, to follow its field's name ("must have at most 80 characters"). */
function problemOf(issue: z.core.$ZodIssue, value: unknown): string {
  const phrase = ownPhrase(issue.message);
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined) return 'is required';
      return `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}, not ${kindOf(value)}`;
    case 'too_small':
      return sizeProblem(issue, 'least');
    case 'too_big':
      return sizeProblem(issue, 'most');
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${quoted(issue.values)}` : `must be one of ${quoted(issue.values)}`;
    case 'invalid_format':
      return phrase ?? `is not in the expected form${issue.format === 'regex' && 'pattern' in issue ? ` (${String(issue.pattern)})` : ''}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'invalid_union':
      return unionProblem(issue, value) ?? 'is not valid';
    case 'custom': {
      const params = issue.params as { problem?: unknown } | undefined;
      if (typeof params?.problem === 'string') return params.problem;
      return phrase ?? 'is not valid';
    }
    default:
      return phrase ?? 'is not valid';
  }
}

/** Every problem of a refused input, in the order zod found them; an unknown key is a problem of its own, named by it. */
export function problemsOf(error: z.ZodError, input: unknown): Problem[] {
  const problems: Problem[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const field = [...issue.path, key].join('.');
        problems.push({ field, problem: 'is not a field of this request', fieldMessage: 'is not a field of this request' });
      }
      continue;
    }
    const field = issue.path.join('.') || '_';
    problems.push({ field, problem: problemOf(issue, valueAt(input, issue.path)), fieldMessage: issue.message });
  }
  return problems;
}

/** One clause: the field (or "the request" for the body as a whole) and its problem. */
function clauseOf({ field, problem }: Pick<Problem, 'field' | 'problem'>): string {
  if (field !== '_') return `${field} ${problem}`;
  return /^(must|is)\b/.test(problem) ? `the request ${problem}` : `the request: ${problem}`;
}

/** The 400's message: "Invalid request: title must not be empty; deadline must be a real day written YYYY-MM-DD, …". */
export function invalidRequestMessage(problems: readonly Pick<Problem, 'field' | 'problem'>[]): string {
  return `Invalid request: ${problems.map(clauseOf).join('; ')}.`;
}
