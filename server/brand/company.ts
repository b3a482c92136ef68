// The company as the legal pages name it: SITE_NAME and brand.json's `legal` and `contact`
// together, made once at start (docs/decisions/036-company-identity.md). The content's
// placeholders (`{{company.legalName}}`, server/content/placeholders.ts) and the structured data
// (server/seo/json-ld.ts) read these facts, so that the legal notice, the privacy policy, the
// footer and the search engines say the same thing.
import type { Locale } from '../../shared/locales.ts';
import { legalName } from '../../shared/brand.ts';
import { addressLines, perLocale, type Brand } from './brand.ts';

export type Company = {
  /** SITE_NAME: how the site calls itself. */
  siteName: string;
  /** The registered name ("Acme S.L."): brand.json's `legal.name` with `{{siteName}}` replaced. */
  legalName: string;
  taxId: string;
  /** The registered office on one line in each language: `legal.registeredOffice`, else the contact address. */
  registeredOffice: Record<Locale, string>;
  /** The entry in the companies register, in each language. */
  registry: Record<Locale, string>;
  email: string;
  phone: string;
};

export function companyOf(brand: Pick<Brand, 'legal' | 'contact'>, siteName: string): Company {
  const office = brand.legal.registeredOffice ?? brand.contact.address;
  return {
    siteName,
    legalName: legalName(brand.legal.name, siteName),
    taxId: brand.legal.taxId,
    registeredOffice: perLocale((locale) => addressLines(office, locale).join(', ')),
    registry: perLocale((locale) => brand.legal.registry[locale]),
    email: brand.contact.email,
    phone: brand.contact.phone,
  };
}
