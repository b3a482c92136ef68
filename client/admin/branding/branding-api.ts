// The console's calls about the branding of CLI and ORG users (/api/admin/branding): apart from
// api.ts, so that the other console pages do not carry them (nor shared/branding.ts).
import { isHexColor, isSafeLogoPath, type Branding } from '../../../shared/branding.ts';
import { callApi, isRecord, type ApiAnswer } from '../api.ts';

export type BrandingAnswer = { userName: string; branding: Branding | null };

/** `{userName, branding}` read from untrusted JSON; a logo that is not ours is dropped. */
function readBrandingAnswer(value: unknown): BrandingAnswer | null {
  if (!isRecord(value)) return null;
  const { userName, branding } = value;
  if (typeof userName !== 'string') return null;
  if (branding === null) return { userName, branding: null };
  if (!isRecord(branding)) return null;
  const { color, logo } = branding;
  if (!isHexColor(color)) return null;
  return { userName, branding: { color, logo: isSafeLogoPath(logo) ? logo : null } };
}

const brandingPath = (userName: string) => `/api/admin/branding/${encodeURIComponent(userName)}`;

export function fetchBranding(userName: string): Promise<ApiAnswer<BrandingAnswer>> {
  return callApi(brandingPath(userName), readBrandingAnswer);
}

/** A hex colour, or null to go back to the default. */
export function saveBrandingColor(userName: string, color: string | null): Promise<ApiAnswer<BrandingAnswer>> {
  return callApi(brandingPath(userName), readBrandingAnswer, 'PUT', { color });
}

/** The file goes as the raw body with its own Content-Type; the server checks the bytes. */
export function uploadBrandingLogo(userName: string, file: File): Promise<ApiAnswer<BrandingAnswer>> {
  return callApi(`${brandingPath(userName)}/logo`, readBrandingAnswer, 'PUT', file);
}

export function removeBrandingLogo(userName: string): Promise<ApiAnswer<BrandingAnswer>> {
  return callApi(`${brandingPath(userName)}/logo`, readBrandingAnswer, 'DELETE');
}
