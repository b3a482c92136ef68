// The cryptography of two-factor authentication: TOTP (RFC 6238: SHA-1, six digits, 30-second
// steps, one step of clock drift either way), the secret sealed at rest (AES-256-GCM with a key
// derived from SESSION_SECRET, bound to its user), and the one-time recovery codes (random,
// stored only as keyed digests).
import { createCipheriv, createDecipheriv, createHmac, randomBytes, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { RECOVERY_CODE_ALPHABET, RECOVERY_CODE_COUNT, RECOVERY_CODE_LENGTH } from '../../shared/two-factor.ts';
import { keyList, type Keys } from '../auth/keys.ts';

const TOTP_OPTIONS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
/** Codes of the step before and after the current one count too (a phone's clock drifts). */
const DRIFT_STEPS = 1;

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommendation), in base32. */
export function newSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function otpauthUri(secret: string, issuer: string, label: string): string {
  return new TOTP({ issuer, label, secret: Secret.fromBase32(secret), ...TOTP_OPTIONS }).toString();
}

/**
 * The URI as an SVG QR code (made here, shown inline: no third party sees the secret). The
 * library (and the PNG encoder it brings) is loaded on the first set-up, not at every start.
 */
export async function qrSvg(uri: string): Promise<string> {
  const { default: QRCode } = await import('qrcode');
  return QRCode.toString(uri, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
}

/** The time step `at` falls in (30-second steps since the epoch). */
export function timeStep(at: number): number {
  return TOTP.counter({ period: TOTP_OPTIONS.period, timestamp: at });
}

/** The time step whose code `code` is, within the drift allowed around `at`; null when none. */
export function matchingStep(secret: string, code: string, at: number): number | null {
  const delta = TOTP.validate({ token: code, secret: Secret.fromBase32(secret), timestamp: at, window: DRIFT_STEPS, ...TOTP_OPTIONS });
  return delta === null ? null : timeStep(at) + delta;
}

/** The code of a secret at a time (tests, and nothing else, need to make one). */
export function codeAt(secret: string, at: number): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at, ...TOTP_OPTIONS });
}

export type SecretBox = {
  /** Sealed with the newest key. */
  seal(secret: string, userName: string): string;
  /** The secret, or null when the text was not sealed with one of the keys for this user. */
  open(sealed: string, userName: string): string | null;
  /** The secret and whether an older key sealed it (to seal it again with the newest); null as open's. */
  unseal(sealed: string, userName: string): { secret: string; stale: boolean } | null;
};

/**
 * AES-256-GCM with a fresh 96-bit nonce per seal; the user name (lower-cased) is the associated
 * data, so a sealed secret copied onto another user's row does not open there.
 * Text: `v1.<nonce>.<ciphertext>.<tag>`, base64url. Several keys, newest first (SESSION_SECRETS,
 * docs/decisions/051): the first seals, each opens.
 */
export function secretBox(keys: Keys<Buffer>): SecretBox {
  const all = keyList(keys);
  for (const key of all) if (key.length !== 32) throw new Error(`The two-factor secret key must be 32 bytes, not ${key.length}`);
  const key = all[0]!;
  const openWith = (candidate: Buffer, text: string, userName: string): string | null => {
    const [version, nonce, sealed, tag] = text.split('.');
    if (version !== 'v1' || !nonce || !sealed || !tag) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', candidate, Buffer.from(nonce, 'base64url'));
      decipher.setAAD(Buffer.from(userName.toLowerCase()));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  };
  const unseal = (text: string, userName: string) => {
    for (const [i, candidate] of all.entries()) {
      const secret = openWith(candidate, text, userName);
      if (secret !== null) return { secret, stale: i > 0 };
    }
    return null;
  };
  return {
    unseal,
    seal(secret, userName) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      cipher.setAAD(Buffer.from(userName.toLowerCase()));
      const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return ['v1', ...[nonce, sealed, cipher.getAuthTag()].map((part) => part.toString('base64url'))].join('.');
    },
    open(text, userName) {
      return unseal(text, userName)?.secret ?? null;
    },
  };
}

/** Ten new recovery codes, normalised (ten characters of the recovery alphabet each, about 50 bits). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    Array.from({ length: RECOVERY_CODE_LENGTH }, () => RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)]).join(''),
  );
}

/**
 * What the database keeps of a recovery code: HMAC-SHA256 under a key derived from
 * SESSION_SECRET, over the user and the normalised code. A copy of the database alone cannot
 * be searched for the codes.
 */
export function recoveryDigest(key: Buffer, userName: string, code: string): string {
  return createHmac('sha256', key).update(`${userName.toLowerCase()}\n${code}`).digest('base64url');
}
