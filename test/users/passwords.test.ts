// Passwords are kept as scrypt hashes that carry their cost; the unit suites make cheaper ones
// (test/setup/quick-passwords.ts), so these tests hold the production module itself.
import { expect, test, vi } from 'vitest';
import type * as Passwords from '../../server/users/passwords.ts';

const passwords = await vi.importActual<typeof Passwords>('../../server/users/passwords.ts');
/** A lower cost, as hashes made before the cost was raised carry. */
const LOWER = { N: 2 ** 10, r: 8, p: 1 };

test('new password hashes are scrypt with N = 2^15, r = 8, p = 1, a 16-byte salt and a 64-byte key', async () => {
  const stored = await passwords.hashPassword('correct horse battery');
  const [scheme, n, r, p, salt, key] = stored.split('$');
  expect([scheme, n, r, p]).toEqual(['scrypt', '32768', '8', '1']);
  expect(Buffer.from(salt!, 'base64')).toHaveLength(16);
  expect(Buffer.from(key!, 'base64')).toHaveLength(64);
  expect(await passwords.verifyPassword('correct horse battery', stored)).toBe(true);
  expect(await passwords.verifyPassword('correct horse batterY', stored)).toBe(false);
});

test('a hash verifies at the cost it was made with, so that the cost can be raised without locking anyone out', async () => {
  const older = await passwords.hashPassword('correct horse battery', LOWER);
  expect(older.startsWith('scrypt$1024$8$1$')).toBe(true);
  expect(await passwords.verifyPassword('correct horse battery', older)).toBe(true);
  expect(await passwords.verifyPassword('wrong horse battery', older)).toBe(false);
});

test('the same salt never comes twice, and a password is compared after NFKC normalisation', async () => {
  const a = await passwords.hashPassword('Ｃorrect horse', LOWER);
  const b = await passwords.hashPassword('Ｃorrect horse', LOWER);
  expect(a).not.toBe(b);
  expect(await passwords.verifyPassword('Correct horse', a)).toBe(true);
});

test('anything that is not a complete scrypt hash never verifies', async () => {
  for (const stored of ['x', '', 'bcrypt$10$abc', 'scrypt$1024$8$1$', 'scrypt$$8$1$c2FsdA==$a2V5']) {
    expect(await passwords.verifyPassword('x', stored), stored).toBe(false);
  }
});
