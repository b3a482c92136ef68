// The unit suites create and sign in thousands of users: at the production cost (scrypt with
// N = 2^15, about 100 ms each and one at a time) hashing was half of their time. Here new hashes
// are made at N = 2^10 — still scrypt, in the stored format, verified by the production code,
// which reads the cost from the hash as it does for hashes made before a cost was raised. The
// built server that the e2e, resilience and security suites start keeps the production cost.
import { vi } from 'vitest';
import type * as Passwords from '../../server/users/passwords.ts';

vi.mock('../../server/users/passwords.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof Passwords>();
  return { ...actual, hashPassword: (password: string) => actual.hashPassword(password, { N: 2 ** 10, r: 8, p: 1 }) };
});
