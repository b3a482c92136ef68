// The company's facts (server/brand/company.ts): brand.json's `legal` and `contact` with
// SITE_NAME, made once at start (docs/decisions/036-company-identity.md).
import { expect, test } from 'vitest';
import { DEFAULT_LEGAL_NAME, loadBrand, parseBrandFile } from '../../server/brand/brand.ts';
import { companyOf } from '../../server/brand/company.ts';
import { intlLocale, LOCALE_CODES, type Locale } from '../../shared/locales.ts';
import { brandFolder, brandJson } from './helpers.ts';

type Json = Record<string, Record<string, unknown>>;

function withLegal(change: (legal: Record<string, unknown>) => void) {
  const json = brandJson() as Json;
  change(json.legal!);
  return parseBrandFile(JSON.stringify(json));
}

test('the legal name follows SITE_NAME: {{siteName}} in legal.name stands for it', () => {
  const brand = withLegal((legal) => void (legal.name = '{{siteName}} Consultores S.L.'));
  expect(companyOf(brand, 'Acme').legalName).toBe('Acme Consultores S.L.');
  expect(companyOf(brand, 'Otra').legalName).toBe('Otra Consultores S.L.');
});

test('without legal.name, the legal name is SITE_NAME followed by “ S.L.”', () => {
  const brand = withLegal((legal) => void delete legal.name);
  expect(brand.legal.name).toBe(DEFAULT_LEGAL_NAME);
  expect(companyOf(brand, 'Acme').legalName).toBe('Acme S.L.');
});

test('an explicit legal name is kept as written, whatever SITE_NAME says', () => {
  const brand = withLegal((legal) => void (legal.name = 'Ejemplo Consultoría Independiente, S.L.'));
  expect(companyOf(brand, 'Acme').legalName).toBe('Ejemplo Consultoría Independiente, S.L.');
});

test('a SITE_NAME with $ signs is written as it is (no replacement patterns)', () => {
  const brand = withLegal((legal) => void (legal.name = '{{siteName}} S.L.'));
  expect(companyOf(brand, "$& $' Co").legalName).toBe("$& $' Co S.L.");
});

test('the registered office is the contact address unless legal.registeredOffice is set, on one line per language', () => {
  const shipped = companyOf(loadBrand(), 'Acme');
  // A line in each locale of the table, the country named in that locale's words (by Intl).
  const spainIn = (locale: Locale) => new Intl.DisplayNames([intlLocale(locale)], { type: 'region' }).of('ES');
  expect(shipped.registeredOffice).toEqual(
    Object.fromEntries(LOCALE_CODES.map((locale) => [locale, `Calle de Alcalá 21, 3.º, 28014 Madrid, ${spainIn(locale)}`])),
  );
  expect(shipped.registeredOffice).toMatchObject({
    es: 'Calle de Alcalá 21, 3.º, 28014 Madrid, España',
    en: 'Calle de Alcalá 21, 3.º, 28014 Madrid, Spain',
  });
  const own = loadBrand(
    brandFolder((json) => ({
      ...json,
      legal: {
        ...(json.legal as object),
        registeredOffice: { street: 'Avenida Diagonal 1', postalCode: '08019', city: 'Barcelona', country: 'ES' },
      },
    })),
  );
  expect(companyOf(own, 'Acme').registeredOffice.es).toBe('Avenida Diagonal 1, 08019 Barcelona, España');
});

test('the tax ID, registry entry, e-mail and phone are brand.json’s', () => {
  const brand = loadBrand();
  const company = companyOf(brand, 'Acme');
  expect(company).toMatchObject({ siteName: 'Acme', taxId: brand.legal.taxId, email: brand.contact.email, phone: brand.contact.phone });
  expect(company.registry).toEqual(brand.legal.registry);
});
