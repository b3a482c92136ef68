// `npm run og-image`: draws the brand's raster images from brand/ (brand.json's colours and
// the logo files) with Debian's Chromium, into public/:
// - og-default.png (1200×630): what a shared link shows when a page has no image of its own;
// - logo-512.png and logo-192.png: the logo on a tile of the primary colour (schema.org
//   Organization.logo, the web manifest's icons);
// - icon-maskable-512.png: the same, full-bleed, the mark inside the safe zone (Android's masks).
// Social networks and launchers take PNG, never SVG, and the project has no raster library of
// its own for SVG: a browser draws the files once and they are committed.
//
// The artwork carries no name (SITE_NAME is configurable; a name drawn here would go stale).
// Re-branding the site: edit brand/, run this script, commit the PNGs.
import { chromium } from 'playwright-core';
import { join } from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';
import { loadBrand, type Brand } from '../server/brand/brand.ts';
import { placedSvg, tileSvg } from '../server/brand/svg.ts';
import { APP_ICONS } from '../server/brand/routes.ts';
import { logoVariantOn } from '../shared/brand.ts';
import { DEFAULT_SOCIAL_IMAGE } from '../server/seo/images.ts';
import { PATHS } from '../server/base/paths.ts';

/** The primary colour's ground, fading to the accent, rings around the logo that reads on it. */
function socialImageSvg(brand: Brand, width: number, height: number): string {
  const { primary, accent } = brand.colors;
  const size = 300;
  const logo = brand.logos[logoVariantOn(primary)].parts;
  const ring = logoVariantOn(primary) === 'light' ? '#062326' : '#ffffff';
  const rings = [230, 340, 450, 560]
    .map(
      (r) => `<circle cx="${width / 2}" cy="${height / 2}" r="${r}" fill="none" stroke="${ring}" stroke-opacity="0.1" stroke-width="2"/>`,
    )
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs><radialGradient id="ground" cx="0.5" cy="0.5" r="0.75"><stop offset="0.35" stop-color="${primary}"/>` +
    `<stop offset="1" stop-color="${accent}"/></radialGradient></defs>` +
    `<rect width="${width}" height="${height}" fill="url(#ground)"/>${rings}` +
    placedSvg(logo, (width - size) / 2, (height - size) / 2, size) +
    '</svg>'
  );
}

async function draw(svg: string, width: number, height: number, file: string, transparent: boolean): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
  try {
    const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
    await page.setContent(`<!DOCTYPE html><html><body style="margin:0;background:transparent">${svg}</body></html>`);
    await page.locator('svg').first().screenshot({ path: file, type: 'png', omitBackground: transparent });
  } finally {
    await browser.close();
  }
}

const brand = loadBrand();
const onPrimary = brand.logos[logoVariantOn(brand.colors.primary)].parts;
const { width, height } = DEFAULT_SOCIAL_IMAGE;
const written = [join(PATHS.public, DEFAULT_SOCIAL_IMAGE.path)];
await draw(socialImageSvg(brand, width, height), width, height, written[0]!, false);
for (const icon of APP_ICONS) {
  const size = Number(icon.sizes.split('x')[0]);
  const file = join(PATHS.public, icon.src);
  await draw(tileSvg(onPrimary, brand.colors.primary, size, { maskable: icon.purpose === 'maskable' }), size, size, file, true);
  written.push(file);
}
console.log(`Wrote ${written.join(', ')}`);
