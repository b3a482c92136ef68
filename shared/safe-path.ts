// A remembered redirect path must be local (docs/specification.md §6). This is the
// open-redirect defence, so it whitelists instead of blacklisting.

// One leading slash, then path characters (letters, digits, / @ - % _ ~), then optionally
// ?query and #hash made of visible ASCII without backslash.
const SAFE_LOCAL_PATH = /^\/(?![/\\])[A-Za-z0-9/@\-%_~]*(\?[\x21-\x22\x24-\x5b\x5d-\x7e]*)?(#[\x21-\x5b\x5d-\x7e]*)?$/;
const MAX_LENGTH = 2048;

function safeDecode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

export function isSafeLocalPath(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_LENGTH) return false;
  if (!SAFE_LOCAL_PATH.test(value)) return false;
  const path = value.split(/[?#]/, 1)[0] ?? '';
  // Decode repeatedly (double encoding) and refuse anything that turns into //, /\ or a control.
  let decoded = path;
  for (let i = 0; i < 3; i++) {
    const next = safeDecode(decoded);
    if (next === null) return false;
    // eslint-disable-next-line no-control-regex -- refusing control characters is the point
    if (/^[/\\]{2}|^\\/.test(next) || /[\x00-\x1f\x7f\\]/.test(next)) return false;
    if (next === decoded) break;
    decoded = next;
  }
  return true;
}

/** The path to go to: the candidate when it is safe, otherwise the fallback. */
export function safeRedirectPath(candidate: unknown, fallback: string): string {
  return isSafeLocalPath(candidate) ? candidate : fallback;
}
