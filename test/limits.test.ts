// The limits written once in shared/ and used by the server's checks and the browser's fields
// alike: where a rule was only implicit in a pattern or a literal, its edges are named here.
import { expect, test } from 'vitest';
import { ID_MAX, idOf, cursorOf } from '../shared/paging.ts';
import {
  CONTACT_LIMITS,
  EMAIL_MAX_LENGTH,
  isEmailAddress,
  USER_NAME_MAX_LENGTH,
  USER_NAME_MIN_LENGTH,
  USER_NAME_PATTERN,
  USER_NAME_RULE,
} from '../shared/validation.ts';

test.each([
  { userName: 'a', ok: false, rule: 'one character is too short' },
  { userName: 'ab', ok: true, rule: `${USER_NAME_MIN_LENGTH} characters are enough` },
  { userName: 'a'.repeat(40), ok: true, rule: `${USER_NAME_MAX_LENGTH} characters are allowed` },
  { userName: 'a'.repeat(41), ok: false, rule: 'one more is too long' },
  { userName: 'ana.lopez_2-b', ok: true, rule: 'dots, underscores, hyphens and digits follow the first character' },
  { userName: '.ana', ok: false, rule: 'the first character is a letter or a digit' },
  { userName: 'ana lópez', ok: false, rule: 'no spaces or letters outside A–Z' },
])('a user name: $rule', ({ userName, ok }) => {
  expect(USER_NAME_PATTERN.test(userName)).toBe(ok);
});

test('the user name rule in words says the same lengths as the pattern', () => {
  expect(USER_NAME_RULE).toBe('2–40 letters, digits, dots, hyphens or underscores');
});

/** An address of exactly `length` characters: a 64-character local part, labels of at most 63, `.com`. */
function addressOf(length: number): string {
  const labels: string[] = [];
  let left = length - 64 - 1 - 'com'.length;
  while (left > 64) {
    labels.push('b'.repeat(50));
    left -= 51;
  }
  labels.push('b'.repeat(left - 1));
  return `${'a'.repeat(64)}@${labels.join('.')}.com`;
}

test('an e-mail address has at most 254 characters, the contact form’s included', () => {
  const at = addressOf;
  expect(EMAIL_MAX_LENGTH).toBe(254);
  expect(CONTACT_LIMITS.email).toBe(EMAIL_MAX_LENGTH);
  expect(at(254)).toHaveLength(254);
  expect(isEmailAddress(at(254))).toBe(true);
  expect(at(255)).toHaveLength(255);
  expect(isEmailAddress(at(255))).toBe(false);
});

test.each([
  { value: '1', id: 1, rule: 'a positive integer is an id' },
  { value: String(ID_MAX), id: ID_MAX, rule: 'the highest 32-bit id is one' },
  { value: String(ID_MAX + 1), id: null, rule: 'past 32 bits is none' },
  { value: '0', id: null, rule: 'zero is none' },
  { value: '01', id: null, rule: 'a leading zero is none' },
  { value: '-1', id: null, rule: 'a negative number is none' },
  { value: '1.5', id: null, rule: 'a fraction is none' },
  { value: '1e3', id: null, rule: 'an exponent is none' },
  { value: '12345678901', id: null, rule: 'more than ten digits is none' },
  { value: '', id: null, rule: 'nothing is none' },
  { value: null, id: null, rule: 'no value is none' },
])('idOf: $rule (and so is a cursor)', ({ value, id }) => {
  expect(idOf(value)).toBe(id);
  expect(cursorOf(value)).toBe(id);
});
