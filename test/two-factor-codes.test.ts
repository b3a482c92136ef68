// The pieces of two-factor authentication that need no database: what counts as a code, the
// sealed secret, the recovery codes and their digests, the otpauth URI.
import { expect, test } from 'vitest';
import { newRecoveryCodes, newSecret, otpauthUri, recoveryDigest, secretBox } from '../server/two-factor/secrets.ts';
import { formatRecoveryCode, groupSecret, readCode } from '../shared/two-factor.ts';

test.each([
  ['123456', { kind: 'totp', code: '123456' }],
  [' 123 456 ', { kind: 'totp', code: '123456' }],
  ['123-456', { kind: 'totp', code: '123456' }],
  ['abcde-fghjk', { kind: 'recovery', code: 'abcdefghjk' }],
  ['ABCDE FGHJK', { kind: 'recovery', code: 'abcdefghjk' }],
  ['abcdefghjk', { kind: 'recovery', code: 'abcdefghjk' }],
  ['', null],
  ['12345', null],
  ['1234567', null],
  ['abcde-fghji', null], // i is not in the alphabet (read as 1 or l)
  ['abcde-fghj0', null], // nor 0 (read as o)
  ['abcde-fghjkm', null],
  ['１２３４５６', null], // full-width digits
])('readCode(%j) → %j', (input, expected) => {
  expect(readCode(input)).toEqual(expected);
});

test('a secret is 160 random bits in base32, grouped by four for typing', () => {
  const secret = newSecret();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  expect(newSecret()).not.toBe(secret);
  expect(groupSecret('ABCDEFGHIJ')).toBe('ABCD EFGH IJ');
});

test('the otpauth URI names the site as issuer and the user as label: TOTP, SHA1, 6 digits, 30 s', () => {
  expect(otpauthUri('JBSWY3DPEHPK3PXP', 'Acme & Co', 'ana.ruiz')).toBe(
    'otpauth://totp/Acme%20%26%20Co:ana.ruiz?issuer=Acme%20%26%20Co&secret=JBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30',
  );
});

test('a sealed secret opens only with its key and for its user; every seal differs; tampering is detected', () => {
  const box = secretBox(Buffer.alloc(32, 7));
  const sealed = box.seal('JBSWY3DPEHPK3PXP', 'Ana');
  expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
  expect(box.seal('JBSWY3DPEHPK3PXP', 'Ana')).not.toBe(sealed);
  expect(box.open(sealed, 'ana')).toBe('JBSWY3DPEHPK3PXP');
  expect(box.open(sealed, 'bob')).toBeNull();
  expect(secretBox(Buffer.alloc(32, 8)).open(sealed, 'ana')).toBeNull();
  const [v, nonce, data, tag] = sealed.split('.');
  const flipped = `${data![0] === 'A' ? 'B' : 'A'}${data!.slice(1)}`;
  expect(box.open([v, nonce, flipped, tag].join('.'), 'ana')).toBeNull();
  expect(box.open('garbage', 'ana')).toBeNull();
  expect(() => secretBox(Buffer.alloc(16))).toThrow('The two-factor secret key must be 32 bytes, not 16');
});

test('ten recovery codes, all different, of the readable alphabet; their digests are keyed and per user', () => {
  const codes = newRecoveryCodes();
  expect(codes).toHaveLength(10);
  expect(new Set(codes).size).toBe(10);
  for (const code of codes) {
    expect(readCode(formatRecoveryCode(code))).toEqual({ kind: 'recovery', code });
  }
  const key = Buffer.alloc(32, 1);
  const digest = recoveryDigest(key, 'Ana', codes[0]!);
  expect(recoveryDigest(key, 'ana', codes[0]!)).toBe(digest);
  expect(recoveryDigest(key, 'bob', codes[0]!)).not.toBe(digest);
  expect(recoveryDigest(Buffer.alloc(32, 2), 'ana', codes[0]!)).not.toBe(digest);
  expect(digest).not.toContain(codes[0]!);
});
