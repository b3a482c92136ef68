// Forms posted with JavaScript: same URL and fields as without it, answered as JSON.
import type { FormResponse } from '../../shared/page-data.ts';

export async function postForm(action: string, body: FormData | Blob | URLSearchParams, contentType?: string): Promise<FormResponse> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  let payload: BodyInit = body;
  if (body instanceof FormData) {
    // Text fields only: sent as application/x-www-form-urlencoded, like the browser would.
    payload = new URLSearchParams([...body.entries()].filter((e): e is [string, string] => typeof e[1] === 'string'));
  }
  if (contentType) headers['Content-Type'] = contentType;
  return answerOf(await fetch(action, { method: 'POST', body: payload, headers, credentials: 'same-origin' }));
}

/** The form's answer in the response, or one that says what failed (too large, unavailable, anything else). */
async function answerOf(response: Response): Promise<FormResponse> {
  const answer = (await response.json().catch(() => null)) as FormResponse | null;
  if (answer && typeof answer === 'object' && 'ok' in answer) return answer;
  const code = response.status === 413 ? 'file_too_large' : response.status === 503 ? 'api_unavailable' : 'internal';
  return { ok: false, form: { form: 'unknown', error: { code, message: `HTTP ${response.status}` } } };
}

/** A form with a file, sent as multipart/form-data like the browser would without JavaScript. */
export async function postMultipart(action: string, body: FormData): Promise<FormResponse> {
  return answerOf(await fetch(action, { method: 'POST', body, headers: { Accept: 'application/json' }, credentials: 'same-origin' }));
}

/** A same-origin avatar path, or the default image (the CSP allows images from 'self' only). */
export function avatarSrc(avatar: string | null | undefined): string {
  return avatar && /^\/(?![/\\])[A-Za-z0-9/_.-]+$/.test(avatar) ? avatar : '/avatar-default.svg';
}
