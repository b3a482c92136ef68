// Montserrat on the web (docs/decisions/022): client/styles/fonts.css is computed from the
// fonts' metrics by scripts/fonts.ts, the build turns the font into a hashed /assets file, the
// pages preload at most two font files, and /assets serves them as font/woff2 for a year.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { expect, test } from 'vitest';
import montserrat from '@capsizecss/metrics/montserrat';
import arial from '@capsizecss/metrics/arial';
import { fallbackMetrics, FONT_STACK, FONTS_CSS, fontsCss } from '../scripts/fonts.ts';
import { PATHS } from '../server/base/paths.ts';
import { readManifest } from '../server/render/manifest.ts';
import { testApp } from './helpers/app.ts';

test('client/styles/fonts.css is what scripts/fonts.ts computes from the metrics (npm run fonts)', async () => {
  expect(readFileSync(FONTS_CSS, 'utf8')).toBe(await fontsCss());
});

test('the fallback takes Montserrat’s room: Arial scaled to Montserrat’s average width, with Montserrat’s ascent and descent', () => {
  const m = fallbackMetrics(montserrat, arial);
  // Montserrat's average Latin character is 0.503 em, Arial's 913/2048 = 0.446 em.
  expect(m.sizeAdjust).toBeCloseTo(0.503 / (913 / 2048), 6);
  // Scaled by size-adjust, the overrides give back Montserrat's own 0.968 em and 0.251 em.
  expect(m.ascentOverride * m.sizeAdjust).toBeCloseTo(0.968, 6);
  expect(m.descentOverride * m.sizeAdjust).toBeCloseTo(0.251, 6);
  expect(m.lineGapOverride).toBe(0);
  const css = readFileSync(FONTS_CSS, 'utf8');
  expect(css).toContain('size-adjust: 112.83%;');
  expect(css).toContain('ascent-override: 85.79%;');
  expect(css).toContain('descent-override: 22.25%;');
});

test('Montserrat is self-hosted: Latin only, font-display swap, a unicode-range, and the page’s font-family starts with it', () => {
  const css = readFileSync(FONTS_CSS, 'utf8');
  const faces = [...css.matchAll(/@font-face \{([^}]*)\}/g)]
    .map((m) => m[1]!)
    .filter((face) => face.includes("font-family: 'Montserrat';"));
  expect(faces).toHaveLength(2);
  for (const face of faces) {
    expect(face).toContain('font-display: swap;');
    expect(face).toMatch(/unicode-range:\s+U\+0000-00FF/);
    expect(face).toMatch(
      /src: url\('@fontsource-variable\/montserrat\/files\/montserrat-latin-wght-(normal|italic)\.woff2'\) format\('woff2'\);/,
    );
  }
  // á é í ó ú ñ ü ¿ ¡ are all in U+0000-00FF: Spanish needs no latin-ext.
  for (const char of 'áéíóúñü¿¡ÁÉÍÓÚÑÜ') expect(char.codePointAt(0)).toBeLessThanOrEqual(0xff);
  expect(FONT_STACK).toMatch(/^Montserrat, 'Montserrat Fallback'/);
  expect(readFileSync(join(PATHS.root, 'client', 'styles', 'app.css'), 'utf8')).toMatch(/:root \{[^}]*font-family: var\(--font-sans\);/);
});

test('the build copies the two Latin files into /assets with hashed names, and no other subset', () => {
  const fonts = readdirSync(join(PATHS.clientBuild, 'assets')).filter((name) => name.endsWith('.woff2'));
  expect(fonts.some((name) => /^montserrat-latin-wght-normal-[A-Z0-9]{8}\.woff2$/.test(name))).toBe(true);
  expect(fonts.some((name) => /^montserrat-latin-wght-italic-[A-Z0-9]{8}\.woff2$/.test(name))).toBe(true);
  expect(fonts.filter((name) => !/^montserrat-latin-wght-/.test(name))).toEqual([]);
});

test('every page preloads the upright file only (at most two font preloads), as font/woff2 with crossorigin', async () => {
  const manifest = readManifest(PATHS.manifest);
  expect(manifest.fonts).toHaveLength(1);
  const app = await testApp();
  for (const path of ['/', '/en/blog', '/Contact', '/login']) {
    const head = (await request(app).get(path)).text.split('</head>')[0]!;
    const preloads = [...head.matchAll(/<link rel="preload" href="([^"]+)" as="font" type="font\/woff2" crossorigin>/g)].map((m) => m[1]);
    expect(preloads, path).toEqual(manifest.fonts);
    // Before the stylesheet that asks for it.
    expect(head.indexOf('as="font"'), path).toBeLessThan(head.indexOf('rel="stylesheet"'));
  }
});

test('/assets serves the font as font/woff2, immutable for a year; the CSP allows fonts from the site only', async () => {
  const app = await testApp();
  const [font] = readManifest(PATHS.manifest).fonts!;
  const res = await request(app).get(font!);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('font/woff2');
  expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  const page = await request(app).get('/');
  expect(page.headers['content-security-policy']).toContain("font-src 'self';");
});
