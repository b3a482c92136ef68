// The data the server embeds in the page for the client: read once by the entry.
import type { PageBrand } from '../shared/brand.ts';
import type { Consent } from '../shared/consent.ts';
import type { Locale } from '../shared/locales.ts';
import type { PagePayload } from '../shared/page-data.ts';
import type { Messages } from '../shared/translate.ts';

export type BootData = {
  payload: PagePayload;
  messages: Messages;
  /** Hashed URLs of each locale's messages (immutable JSON files of the build). */
  messageUrls: Record<Locale, string>;
  siteName: string;
  /** The company's identity (brand/): logo, tagline, contact details, colours. */
  brand: PageBrand;
  /** The visitor's cookie choice (null: not made yet) and whether there are analytics at all. */
  consent: { current: Consent | null; analyticsConfigured: boolean };
  /** LOCALE_COOKIE: the locale switcher records the choice in the i18n_redirected cookie. */
  localeCookie: boolean;
};

/**
 * What the page carries in its boot script: the boot data but the messages, which the entry
 * loads from `messageUrls` (preloaded by the page, cached by the browser and the service worker
 * across pages) before hydrating. The server renders with the messages all the same.
 */
export type PageBoot = Omit<BootData, 'messages'>;

export const BOOT_ELEMENT_ID = '__BOOT__';
