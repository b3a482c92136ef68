// The design system's rules (client/styles/tokens.css, docs/decisions/023): colours, radii and
// shadows come from the tokens only; every token a stylesheet uses is defined; the dark values
// are the same whether the visitor chose dark or the system prefers it; branding keeps the
// navbar in both themes; and every text/background pair meets WCAG AA in both themes.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from '../scripts/build-state.ts';

const STYLES = join(ROOT, 'client', 'styles');
const TOKENS_FILE = 'tokens.css';
const tokensCss = readFileSync(join(STYLES, TOKENS_FILE), 'utf8');
const sheets = readdirSync(STYLES)
  .filter((name) => name.endsWith('.css'))
  .map((name) => ({ name, css: readFileSync(join(STYLES, name), 'utf8') }));
const componentSheets = sheets.filter((sheet) => sheet.name !== TOKENS_FILE);

/** The CSS without its comments, line numbers kept. */
function withoutComments(css: string): string {
  return css.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '));
}

/** `{ line, text }` of every line of `css` (comments blanked) matching `pattern`. */
function linesMatching(css: string, pattern: RegExp): { line: number; text: string }[] {
  return withoutComments(css)
    .split('\n')
    .flatMap((text, i) => (pattern.test(text) ? [{ line: i + 1, text: text.trim() }] : []));
}

/** The declarations (`--name: value`) of the first block whose selector is exactly `selector`. */
function block(css: string, selector: string): Map<string, string> {
  const source = withoutComments(css);
  const start = source.indexOf(`${selector} {`);
  if (start === -1) throw new Error(`tokens.css has no block "${selector} {"`);
  const body = source.slice(source.indexOf('{', start) + 1, source.indexOf('}', start));
  const declarations = new Map<string, string>();
  for (const match of body.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)) declarations.set(match[1]!, match[2]!.trim());
  return declarations;
}

const LIGHT = block(tokensCss, ":root,\n[data-theme='light']");
const DARK = block(tokensCss, "[data-theme='dark']");
const SYSTEM_DARK = block(tokensCss, "  :root:not([data-theme='light'])");
const SHARED = block(tokensCss, ':root');
const DERIVED = block(tokensCss, ':root,\n[data-theme]');

const RAW_COLOUR = /#[0-9a-fA-F]{3,8}\b|\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(/;
// A colour keyword in a value (custom properties' names, such as --teal, aside).
const NAMED_COLOUR =
  /:\s*(?:[^;-]|-(?!-)|--[\w-]+)*?(?<![\w-])(?:white|black|red|green|blue|yellow|orange|purple|pink|gray|grey|silver|maroon|navy|teal|aqua|lime|olive|fuchsia)\b/;

describe('raw values live in the tokens only', () => {
  test.each(componentSheets)('$name has no raw colour (hex, rgb(), hsl()… or a colour name): only var(--…)', ({ css }) => {
    const found = [...linesMatching(css, RAW_COLOUR), ...linesMatching(css, NAMED_COLOUR)];
    expect(found, 'use a colour token from client/styles/tokens.css').toEqual([]);
  });

  test.each(componentSheets)('$name takes its radii and shadows from the tokens', ({ css }) => {
    const radius = linesMatching(css, /border(?:-[a-z]+)*-radius\s*:/).filter(({ text }) => !/:\s*(?:0|var\(--[\w-]+\))\s*;/.test(text));
    const shadow = linesMatching(css, /box-shadow\s*:/).filter(({ text }) => !/:\s*(?:none|var\(--[\w-]+\))\s*;/.test(text));
    expect([...radius, ...shadow], 'use --radius-* and --shadow-* from client/styles/tokens.css').toEqual([]);
  });

  test.each(componentSheets)('$name spaces with the --space-* scale (margin, padding, gap)', ({ css }) => {
    // A value is 0, auto, a token, or calc() of tokens (a negative margin: calc(-1 * var(--space-2)));
    // and the hairline of the visually hidden pattern (margin: -1px).
    const allowed = /^(?:0|auto|-?1px|var\(--[\w-]+\)|calc\([^;]*\))(?:\s+(?:0|auto|-?1px|var\(--[\w-]+\)|calc\([^;]*\)))*$/;
    const found = linesMatching(css, /^\s*(?:margin|padding|gap|row-gap|column-gap)(?:-[a-z]+)*\s*:/).filter(({ text }) => {
      const value = text
        .replace(/^[^:]+:\s*/, '')
        .replace(/\s*!important/, '')
        .replace(/;$/, '');
      return !allowed.test(value) || /calc\((?![^)]*var\()/.test(value);
    });
    expect(found, 'use --space-* from client/styles/tokens.css').toEqual([]);
  });

  test.each(componentSheets)('$name uses only custom properties that are defined', ({ name, css }) => {
    // fonts.css (made by scripts/fonts.ts) defines --font-sans: Montserrat and its fallbacks.
    const fontsCss = readFileSync(join(STYLES, 'fonts.css'), 'utf8');
    const defined = new Set(
      [...tokensCss.matchAll(/(--[\w-]+)\s*:/g), ...fontsCss.matchAll(/(--[\w-]+)\s*:/g), ...css.matchAll(/(--[\w-]+)\s*:/g)].map(
        (m) => m[1]!,
      ),
    );
    const used = [...withoutComments(css).matchAll(/var\((--[\w-]+)/g)].map((m) => m[1]!);
    expect(
      used.filter((token) => !defined.has(token)),
      `${name} uses undefined tokens`,
    ).toEqual([]);
  });

  test('client/entry.tsx imports the tokens before every other stylesheet', () => {
    const entry = readFileSync(join(ROOT, 'client', 'entry.tsx'), 'utf8');
    const imports = [...entry.matchAll(/^import '\.\/styles\/([\w-]+\.css)';$/gm)].map((m) => m[1]);
    expect(imports[0]).toBe(TOKENS_FILE);
    expect(new Set(imports)).toEqual(new Set(sheets.map((sheet) => sheet.name)));
  });
});

describe('the themes', () => {
  test('every colour token has a dark value', () => {
    const colours = [...LIGHT.keys()].filter((name) => name.startsWith('--color-') || name.startsWith('--shadow-color'));
    expect(colours.length).toBeGreaterThan(30);
    expect(colours.filter((name) => !DARK.has(name))).toEqual([]);
    expect([...DARK.keys()].filter((name) => !LIGHT.has(name))).toEqual([]);
  });

  test('the dark values are the same whether the visitor chose dark or the system prefers it', () => {
    expect(Object.fromEntries(SYSTEM_DARK)).toEqual(Object.fromEntries(DARK));
    expect(linesMatching(tokensCss, /^\s*color-scheme:\s*dark/)).toHaveLength(2);
  });

  // brand/brand.json is the colour's source (the server reads it: server/brand/brand.ts, and sets
  // --navbar-bg on every page from it); the stylesheet cannot read JSON, so this test holds its
  // token to the same value — the first paint and anything painted with --color-brand agree.
  test('the navbar is the brand’s primary colour (brand/brand.json) in both themes, and the dark values never touch it (branding overrides it)', () => {
    const brand = JSON.parse(readFileSync(join(ROOT, 'brand', 'brand.json'), 'utf8')) as { colors: { primary: string } };
    expect(SHARED.get('--color-brand')?.toLowerCase()).toBe(brand.colors.primary.toLowerCase());
    expect(SHARED.get('--navbar-bg')).toBe('var(--color-brand)');
    for (const theme of [LIGHT, DARK, SYSTEM_DARK]) {
      expect([...theme.keys()].filter((name) => name.startsWith('--navbar') || name === '--color-brand')).toEqual([]);
    }
  });

  test('the names used before the tokens stay valid', () => {
    for (const name of [
      '--teal',
      '--ink',
      '--muted',
      '--link',
      '--bg',
      '--bg-alt',
      '--border',
      '--primary',
      '--primary-fg',
      '--radius',
      '--max',
    ]) {
      expect(DERIVED.has(name) || SHARED.has(name), name).toBe(true);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Contrast (WCAG 2.x relative luminance), measured on the tokens' values.

type Rgba = [number, number, number, number];

function parseColour(value: string): Rgba {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value);
  if (hex) {
    const digits = hex[1]!.length === 3 ? [...hex[1]!].map((c) => c + c).join('') : hex[1]!;
    return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16)).concat(1) as Rgba;
  }
  const rgba = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(value);
  if (rgba) return [Number(rgba[1]), Number(rgba[2]), Number(rgba[3]), rgba[4] === undefined ? 1 : Number(rgba[4])];
  throw new Error(`Not a colour: ${value}`);
}

function luminance([r, g, b]: Rgba): number {
  const [R, G, B] = [r, g, b].map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * R + 0.7152 * G + 0.0722 * B;
}

export function contrast(foreground: string, background: string): number {
  const [a, b] = [luminance(parseColour(foreground)), luminance(parseColour(background))];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** A token's value in a theme (the shared block when the theme does not set it), references followed. */
function valueOf(name: string, theme: Map<string, string>): string {
  const value = theme.get(name) ?? SHARED.get(name);
  if (!value) throw new Error(`No token ${name}`);
  const reference = /^var\((--[\w-]+)\)$/.exec(value);
  return reference ? valueOf(reference[1]!, theme) : value;
}

const TEXT = 4.5;
const NON_TEXT = 3;
/** Where each colour is used on which background (grep the stylesheets for the foreground's name). */
const CONTRAST_PAIRS: readonly { foreground: string; backgrounds: string[]; min: number }[] = [
  { foreground: '--color-text', backgrounds: ['--color-bg', '--color-surface', '--color-surface-alt'], min: TEXT },
  { foreground: '--color-text-muted', backgrounds: ['--color-bg', '--color-surface', '--color-surface-alt'], min: TEXT },
  { foreground: '--color-link', backgrounds: ['--color-bg', '--color-surface', '--color-surface-alt'], min: TEXT },
  { foreground: '--color-primary', backgrounds: ['--color-bg', '--color-surface', '--color-surface-alt'], min: TEXT },
  { foreground: '--color-on-primary', backgrounds: ['--color-primary', '--color-primary-hover'], min: TEXT },
  { foreground: '--color-on-danger', backgrounds: ['--color-danger-solid', '--color-danger-solid-hover'], min: TEXT },
  { foreground: '--color-danger', backgrounds: ['--color-bg', '--color-surface'], min: TEXT },
  { foreground: '--color-danger-text', backgrounds: ['--color-danger-bg'], min: TEXT },
  { foreground: '--color-success-text', backgrounds: ['--color-success-bg'], min: TEXT },
  { foreground: '--color-warning-text', backgrounds: ['--color-warning-bg'], min: TEXT },
  { foreground: '--color-info-text', backgrounds: ['--color-info-bg'], min: TEXT },
  { foreground: '--color-neutral-text', backgrounds: ['--color-neutral-bg'], min: TEXT },
  { foreground: '--color-accent-text', backgrounds: ['--color-accent-bg'], min: TEXT },
  { foreground: '--color-text', backgrounds: ['--color-neutral-bg'], min: TEXT },
  { foreground: '--color-attention', backgrounds: ['--color-surface'], min: TEXT },
  { foreground: '--color-footer-text', backgrounds: ['--color-footer-bg'], min: TEXT },
  { foreground: '--navbar-fg', backgrounds: ['--navbar-bg'], min: TEXT },
  { foreground: '--color-on-alert', backgrounds: ['--color-confirm', '--color-cancel'], min: TEXT },
  { foreground: '--color-border-strong', backgrounds: ['--color-bg', '--color-surface'], min: NON_TEXT },
  { foreground: '--color-focus', backgrounds: ['--color-bg', '--color-surface', '--color-surface-alt'], min: NON_TEXT },
  { foreground: '--color-danger', backgrounds: ['--color-danger-bg'], min: NON_TEXT },
  { foreground: '--color-success', backgrounds: ['--color-success-bg'], min: NON_TEXT },
  { foreground: '--color-warning', backgrounds: ['--color-warning-bg'], min: NON_TEXT },
  { foreground: '--color-info', backgrounds: ['--color-info-bg'], min: NON_TEXT },
];

const CASES = (['light', 'dark'] as const).flatMap((theme) =>
  CONTRAST_PAIRS.flatMap(({ foreground, backgrounds, min }) => backgrounds.map((background) => ({ theme, foreground, background, min }))),
);

test.each(CASES)('$theme theme: $foreground on $background has a contrast of at least $min:1', ({ theme, foreground, background, min }) => {
  const values = theme === 'light' ? LIGHT : DARK;
  const ratio = contrast(valueOf(foreground, values), valueOf(background, values));
  expect(ratio, `${valueOf(foreground, values)} on ${valueOf(background, values)}`).toBeGreaterThanOrEqual(min);
});
