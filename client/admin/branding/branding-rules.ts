// The branding editor's checks and words, apart from its screen.
import { sixDigitHex } from '../../../shared/branding.ts';
import { IMAGE_MAX_BYTES, IMAGE_MIME_TYPES } from '../../../shared/uploads.ts';

/** The browser's quick check of a chosen logo (a message key), or null when it may be sent. */
export function logoProblem(file: Pick<File, 'type' | 'size'> | null): string | null {
  if (!file) return 'adminConsole.branding.logoRequired';
  if (!IMAGE_MIME_TYPES.includes(file.type)) return 'adminConsole.branding.logoType';
  if (file.size === 0) return 'adminConsole.branding.logoEmpty';
  if (file.size > IMAGE_MAX_BYTES) return 'adminConsole.branding.logoTooLarge';
  return null;
}

/** `#rgb` or `#rrggbb` as the `#rrggbb` (lower case) that `<input type="color">` needs. */
export function sixDigitColor(hex: string): string {
  return sixDigitHex(hex).toLowerCase();
}

/** Failures after which the editor has nothing left to edit (the list is reloaded). */
export const STALE_CODES: ReadonlySet<string> = new Set(['user_not_found', 'not_brandable']);

/** Where the editor's own texts for API failures are (else the console's are used). */
export const BRANDING_ERRORS = 'adminConsole.branding.errors';
