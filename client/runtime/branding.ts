// The navbar's branding colours outside React's root (the signed-in user's, on their area's
// pages): set through CSSOM, which the CSP allows, unlike inline styles.
import { brandingCssVariables, type Branding } from '../../shared/branding.ts';

/** The server's <style> with the first paint's branding colours (replaced by CSSOM on the first change). */
export const BRANDING_STYLE_ID = '__BRANDING__';

export function applyBranding(branding: Branding | null | undefined): void {
  document.getElementById(BRANDING_STYLE_ID)?.remove();
  const root = document.documentElement.style;
  const variables = brandingCssVariables(branding);
  for (const name of ['--navbar-bg', '--navbar-fg']) {
    if (variables?.[name]) root.setProperty(name, variables[name]);
    else root.removeProperty(name);
  }
}
