// brand/ is read once at start and checked: a mistake stops the start with a message that names
// the field (brand.json) or the file and the problem (the logos).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BrandError, loadBrand, openingHoursLine, parseBrandFile } from '../../server/brand/brand.ts';
import { svgProblems } from '../../server/brand/svg.ts';
import { contrastRatio } from '../../shared/branding.ts';
import { PATHS } from '../../server/base/paths.ts';
import { createTestApp } from '../helpers/app.ts';
import { brandFolder, brandJson } from './helpers.ts';
import { scaled } from '../helpers/time-scale.ts';

type Json = Record<string, Record<string, unknown>>;

describe('a bad brand.json is refused with the field named', () => {
  const cases: { name: string; change: (json: Json) => void; field: string }[] = [
    { name: 'an e-mail that is not one', change: (j) => void (j.contact!.email = 'hola(at)example.com'), field: 'contact.email' },
    { name: 'a phone number without its country code', change: (j) => void (j.contact!.phone = '910 000 000'), field: 'contact.phone' },
    { name: 'a colour that is not hex', change: (j) => void (j.colors!.primary = 'teal'), field: 'colors.primary' },
    { name: 'an accent that does not read on white', change: (j) => void (j.colors!.accent = '#30B7BB'), field: 'colors.accent' },
    { name: 'a missing tagline', change: (j) => void delete j.tagline!.en, field: 'tagline.en' },
    { name: 'an empty tagline', change: (j) => void (j.tagline!.es = '  '), field: 'tagline.es' },
    {
      name: 'a country that is not a code',
      change: (j) => void ((j.contact!.address as Json['x'])!.country = 'Spain'),
      field: 'contact.address.country',
    },
    {
      name: 'opening hours that close before they open',
      change: (j) => void (j.contact!.openingHours = [{ days: ['Mo'], opens: '18:00', closes: '09:00' }]),
      field: 'contact.openingHours.0.closes',
    },
    {
      name: 'an unknown day',
      change: (j) => void (j.contact!.openingHours = [{ days: ['Monday'], opens: '09:00', closes: '18:00' }]),
      field: 'contact.openingHours.0.days.0',
    },
    { name: 'a misspelt key (a typo is not ignored)', change: (j) => void (j.colours = {}), field: 'colours' },
    { name: 'no legal facts', change: (j) => void delete j.legal, field: 'legal' },
    { name: 'a tax ID with other characters', change: (j) => void (j.legal!.taxId = 'b/0000 0000!'), field: 'legal.taxId' },
    { name: 'an empty tax ID', change: (j) => void (j.legal!.taxId = ''), field: 'legal.taxId' },
    {
      name: 'a registry entry missing in a language',
      change: (j) => void delete (j.legal!.registry as Json['x'])!.en,
      field: 'legal.registry.en',
    },
    { name: 'a legal name with another placeholder', change: (j) => void (j.legal!.name = '{{company.name}} S.L.'), field: 'legal.name' },
    {
      name: 'a registered office without a country code',
      change: (j) => void (j.legal!.registeredOffice = { street: 'Calle Mayor 1', postalCode: '28013', city: 'Madrid', country: 'España' }),
      field: 'legal.registeredOffice.country',
    },
    { name: 'a misspelt legal key', change: (j) => void (j.legal!.taxID = 'B-00000000'), field: 'legal' },
  ];
  test.each(cases)('$name → $field', ({ change, field }) => {
    const json = brandJson() as Json;
    change(json);
    expect(() => parseBrandFile(JSON.stringify(json))).toThrow(BrandError);
    expect(() => parseBrandFile(JSON.stringify(json))).toThrow(
      new RegExp(`^Invalid brand/brand\\.json:\\n[\\s\\S]*${field.replace(/\./g, '\\.')}`),
    );
  });

  test('a brand.json without legal facts says what they are', () => {
    const json = brandJson();
    delete json.legal;
    expect(() => parseBrandFile(JSON.stringify(json))).toThrow(
      'legal: is required: the legal name, tax ID (taxId) and registry entry (registry) the legal pages show',
    );
  });

  test('a brand.json that is not JSON says so, with the file', () => {
    expect(() => parseBrandFile('{ "tagline": ')).toThrow(/^brand\/brand\.json is not valid JSON/);
  });
});

test('the project’s own brand/ is valid: its accent reads on white, its logos carry no text', () => {
  const brand = loadBrand();
  expect(contrastRatio(brand.colors.accent, '#ffffff')).toBeGreaterThanOrEqual(4.5);
  for (const logo of Object.values(brand.logos)) {
    expect(svgProblems(logo.svg)).toEqual([]);
    expect(logo.svg).not.toMatch(/<text|the product/i);
    expect(logo.url).toMatch(/^\/brand\/logo-(light|dark)-[0-9a-f]{10}\.svg$/);
  }
  // The navbar's default colour stays the specification's teal.
  expect(brand.colors.primary).toBe('#30B7BB');
});

describe('a logo is refused when it could run, load or say something', () => {
  const OK = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="20"/></svg>';
  const cases: [string, string, RegExp][] = [
    ['not an SVG', '<html><body>logo</body></html>', /not an SVG file/],
    ['no xmlns', OK.replace(' xmlns="http://www.w3.org/2000/svg"', ''), /xmlns/],
    ['no viewBox', OK.replace(' viewBox="0 0 64 64"', ''), /viewBox/],
    ['a script', OK.replace('</svg>', '<script>alert(1)</script></svg>'), /<script>/],
    ['an event handler', OK.replace('<circle', '<circle onclick="alert(1)"'), /event handler/],
    ['an external image', OK.replace('</svg>', '<image href="https://evil.example/x.png"/></svg>'), /outside the file/],
    ['a remote url()', OK.replace('<circle', '<circle style="fill:url(https://evil.example/p)"'), /url\(\)/],
    ['the name as text', OK.replace('</svg>', '<text x="0" y="60">the product</text></svg>'), /must not contain text/],
  ];
  test.each(cases)('%s', (_name, svg, problem) => {
    expect(svgProblems(svg).join('\n')).toMatch(problem);
    const dir = brandFolder(undefined, { 'logo-dark.svg': svg });
    expect(() => loadBrand(dir)).toThrow(/logo-dark\.svg/);
  });
  test('a drawing with an internal reference (a clip path) is fine', () => {
    expect(
      svgProblems(
        OK.replace('<circle', '<defs><clipPath id="c"><rect width="9" height="9"/></clipPath></defs><circle clip-path="url(#c)"'),
      ),
    ).toEqual([]);
  });
});

test.each([
  { days: ['Mo', 'Tu', 'We', 'Th', 'Fr'], es: 'Lunes a viernes, 09:00–18:00', en: 'Monday to Friday, 09:00–18:00' },
  { days: ['Mo', 'We', 'Fr'], es: 'Lunes, miércoles y viernes, 09:00–18:00', en: 'Monday, Wednesday, and Friday, 09:00–18:00' },
  { days: ['Sa'], es: 'Sábado, 09:00–18:00', en: 'Saturday, 09:00–18:00' },
  { days: ['Fr', 'Mo', 'Tu', 'We', 'Sa', 'Th'], es: 'Lunes a sábado, 09:00–18:00', en: 'Monday to Saturday, 09:00–18:00' },
] as const)('opening hours $days read “$es” and “$en”', ({ days, es, en }) => {
  const hours = { days: [...days], opens: '09:00', closes: '18:00' };
  expect(openingHoursLine(hours, 'es')).toBe(es);
  expect(openingHoursLine(hours, 'en')).toBe(en);
});

test('a bad brand.json stops the app before anything starts, naming the field', async () => {
  const dir = brandFolder((json) => ({ ...json, colors: { primary: '#30B7BB', accent: 'navy' } }));
  await expect(createTestApp(undefined, { brandDir: dir })).rejects.toThrow(/colors\.accent: must be a hex colour/);
});

test('a bad brand.json stops the built server: exit code 1 and the field on stderr', () => {
  // The built server finds brand/ beside its package.json: a copy of the bundle in a folder of its own.
  const root = mkdtempSync(join(tmpdir(), 'brand-start-'));
  cpSync(join(PATHS.root, 'dist', 'server'), join(root, 'dist', 'server'), { recursive: true });
  writeFileSync(join(root, 'package.json'), readFileSync(join(PATHS.root, 'package.json')));
  symlinkSync(join(PATHS.root, 'node_modules'), join(root, 'node_modules'), 'dir');
  mkdirSync(join(root, 'brand'));
  cpSync(
    brandFolder((json) => ({ ...json, contact: { ...(json.contact as object), email: 'not-an-address' } })),
    join(root, 'brand'),
    {
      recursive: true,
    },
  );
  const run = spawnSync(process.execPath, [join(root, 'dist', 'server', 'main.js')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(40),
      PUBLIC_URL: 'https://www.example.test',
      PORT: '0',
      DATA_DIR: join(root, 'data'),
    },
    encoding: 'utf8',
    timeout: scaled(20_000),
  });
  expect(run.status).toBe(1);
  expect(run.stderr).toContain('Invalid brand/brand.json:\n  contact.email: must be an e-mail address');
});
