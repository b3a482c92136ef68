// Two-factor authentication (TOTP), what the server and the pages share: the shapes of the codes
// a person types and what the set-up page shows. Pure: no I/O.

/** Recovery codes are ten characters of this alphabet (no 0/o, 1/l/i), shown as `xxxxx-xxxxx`. */
export const RECOVERY_CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const RECOVERY_CODE_LENGTH = 10;
export const RECOVERY_CODE_COUNT = 10;
/** What a code field takes at most (a recovery code with spaces or hyphens fits). */
export const CODE_INPUT_MAX_LENGTH = 40;

export type TypedCode = { kind: 'totp'; code: string } | { kind: 'recovery'; code: string };

/**
 * What a person typed in a code field, normalised: six digits are an authenticator's code, ten
 * characters of the recovery alphabet a recovery code (spaces and hyphens ignored, any case).
 * Anything else is null: not a code at all.
 */
export function readCode(input: string): TypedCode | null {
  const compact = input.replace(/[\s-]/g, '').toLowerCase();
  if (/^\d{6}$/.test(compact)) return { kind: 'totp', code: compact };
  if (compact.length === RECOVERY_CODE_LENGTH && [...compact].every((c) => RECOVERY_CODE_ALPHABET.includes(c))) {
    return { kind: 'recovery', code: compact };
  }
  return null;
}

/** A recovery code as it is shown: `abcde-fghjk`. */
export function formatRecoveryCode(code: string): string {
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** The secret for typing by hand, in groups of four: `ABCD EFGH …`. */
export function groupSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/** The set-up page: the key to add while 2FA is off, its state once it is on. */
export type TwoFactorSetupView =
  | {
      enabled: false;
      /** An administrator on a site that requires 2FA of administrators: nothing else until it is on. */
      required: boolean;
      /** The secret (base32) and its otpauth:// URI as a QR code (SVG markup made on the server). */
      key: { secret: string; qrSvg: string };
    }
  | { enabled: true; required: boolean; enabledAt: string; recoveryCodesLeft: number };
