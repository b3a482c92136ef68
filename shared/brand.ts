// The company's identity as the pages show it (server/brand/ reads it from brand/ at start):
// tagline, contact details, colours and the logo's two variants. The texts that need a
// locale (an address line with the country's name, the opening hours) are written on the
// server once, so that server and browser render the same characters whatever their ICU data.
import type { Locale } from './locales.ts';
import { readableTextColor } from './branding.ts';

/** What every page carries in its boot data (small: it is in each document). */
export type PageBrand = {
  tagline: Record<Locale, string>;
  email: string;
  phone: { text: string; href: string };
  /** The postal address as lines (street, postal code and city, country). */
  address: Record<Locale, string[]>;
  /** Opening hours as lines ("Mon–Fri 9:00–18:00"); none when brand.json gives none. */
  hours: Record<Locale, string[]>;
  colors: { primary: string; accent: string };
  /** URLs of the logo for light backgrounds (dark ink) and for dark ones (light ink). */
  logos: { light: string; dark: string };
  /** brand.json's `legal.name` as written: `{{siteName}}` in it stands for SITE_NAME (legalName() says it). */
  legalName: string;
};

/** What stands for SITE_NAME in brand.json's `legal.name`: the legal name follows the site's name (docs/decisions/035). */
export const SITE_NAME_TOKEN = '{{siteName}}';

/** The registered name ("Acme S.L."): brand.json's `legal.name` with `{{siteName}}` replaced. */
export function legalName(written: string, siteName: string): string {
  // A function, so that a `$` in the name is not read as a replacement pattern.
  return written.replaceAll(SITE_NAME_TOKEN, () => siteName);
}

/** `tel:` link of a phone number written for people (`+34 910 000 000` → `tel:+34910000000`). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

/**
 * The logo variant that reads on a background: the one with dark ink where dark text reads
 * (the specification's teal navbar), the one with light ink where white text does.
 */
export function logoVariantOn(background: string): 'light' | 'dark' {
  return readableTextColor(background) === '#ffffff' ? 'dark' : 'light';
}
