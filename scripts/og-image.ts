// `npm run og-image`: draws the site's default social image (public/og-default.png, 1200×630,
// what a shared link shows when a page has no image of its own) and its square logo
// (public/logo-512.png, schema.org Organization.logo), from the SVG artwork below, with
// Debian's Chromium. Social networks take PNG or JPEG, never SVG, and the project has no
// raster library: a browser draws the PNG once and the files are committed.
//
// The artwork carries no name (SITE_NAME is configurable; a name drawn here would go stale):
// the brand's teal and the emblem of public/favicon.svg. Re-branding the site: change the
// colours and shapes here, run the script, commit the two PNGs.
import { chromium } from 'playwright-core';
import { join } from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';
import { DEFAULT_SOCIAL_IMAGE, SITE_LOGO } from '../server/seo/images.ts';
import { PATHS } from '../server/paths.ts';

const TEAL = '#30B7BB';
const TEAL_DARK = '#1F8E92';
const INK = '#062326';

/** The emblem of public/favicon.svg (a 64×64 drawing), scaled and placed. */
function emblem(x: number, y: number, size: number): string {
  return (
    `<g transform="translate(${x} ${y}) scale(${size / 64})">` +
    `<rect width="64" height="64" rx="14" fill="${TEAL}"/>` +
    `<path d="M18 22h28v6H35v20h-6V28H18z" fill="${INK}"/></g>`
  );
}

function socialImageSvg(width: number, height: number): string {
  const size = 280;
  const rings = [220, 330, 440, 550]
    .map((r) => `<circle cx="${width / 2}" cy="${height / 2}" r="${r}" fill="none" stroke="#fff" stroke-opacity="0.14" stroke-width="2"/>`)
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${TEAL}"/>` +
    `<stop offset="1" stop-color="${TEAL_DARK}"/></linearGradient></defs>` +
    `<rect width="${width}" height="${height}" fill="url(#bg)"/>${rings}` +
    // A dark plate under the emblem, so that the teal emblem stands out on the teal ground.
    `<rect x="${(width - size) / 2 - 24}" y="${(height - size) / 2 - 24}" width="${size + 48}" height="${size + 48}" rx="64" fill="${INK}"/>` +
    emblem((width - size) / 2, (height - size) / 2, size) +
    `</svg>`
  );
}

function logoSvg(size: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">${emblem(0, 0, size)}</svg>`;
}

async function draw(svg: string, width: number, height: number, file: string, transparent: boolean): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
  try {
    const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
    await page.setContent(`<!DOCTYPE html><html><body style="margin:0;background:transparent">${svg}</body></html>`);
    await page.locator('svg').screenshot({ path: file, type: 'png', omitBackground: transparent });
  } finally {
    await browser.close();
  }
}

const social = join(PATHS.public, DEFAULT_SOCIAL_IMAGE.path);
const logo = join(PATHS.public, SITE_LOGO.path);
await draw(
  socialImageSvg(DEFAULT_SOCIAL_IMAGE.width, DEFAULT_SOCIAL_IMAGE.height),
  DEFAULT_SOCIAL_IMAGE.width,
  DEFAULT_SOCIAL_IMAGE.height,
  social,
  false,
);
await draw(logoSvg(SITE_LOGO.width), SITE_LOGO.width, SITE_LOGO.height, logo, true);
console.log(`Wrote ${social} and ${logo}`);
