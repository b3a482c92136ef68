// The logo files of brand/: what a logo may hold, and the drawings made from it (the favicon
// and the app icons: the logo on a tile of the brand colour). Pure string work, shared by the
// server (favicon, PDFs) and scripts/og-image.ts (the PNGs).

/** An SVG file's root: `<svg …>inner</svg>`, with an optional XML declaration and comments before it. */
const SVG_ROOT = /^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*)*<svg\b([^>]*)>([\s\S]*)<\/svg>\s*$/;

/**
 * What a logo must not hold, each with the reason given to whoever edits brand/: the file is
 * served from the site's origin and drawn into PDFs, so nothing active and nothing from
 * elsewhere; and no text, because the name is SITE_NAME's, written beside the mark.
 */
const FORBIDDEN: readonly [RegExp, string][] = [
  [/<script\b/i, 'must not contain <script>'],
  [/\son[a-z]+\s*=/i, 'must not contain event handler attributes (onload=…)'],
  [/<foreignObject\b/i, 'must not contain <foreignObject>'],
  [/<!DOCTYPE|<!ENTITY/i, 'must not declare a DOCTYPE or entities'],
  [/(?:xlink:)?href\s*=\s*["'](?!#)/i, 'must not link to anything outside the file (only href="#id")'],
  [/url\(\s*["']?(?!#)/i, 'must not load anything with url() (only url(#id))'],
  [/<(?:text|tspan|textPath)\b/i, "must not contain text: the site's name (SITE_NAME) is written beside the logo, not in it"],
  [/<(?:image|use)\b[^>]*href\s*=\s*["'](?!#)/i, 'must not embed images'],
];

export type SvgParts = { viewBox: string; inner: string };

/** A logo's problems (empty: fine), in words that say what to change. */
export function svgProblems(svg: string): string[] {
  const root = SVG_ROOT.exec(svg);
  if (!root) return ['is not an SVG file (expected one <svg> element)'];
  const problems: string[] = [];
  if (!/\bxmlns\s*=\s*["']http:\/\/www\.w3\.org\/2000\/svg["']/.test(root[1] ?? '')) {
    problems.push('needs xmlns="http://www.w3.org/2000/svg" on <svg> (browsers show an <img> of it only then)');
  }
  if (!viewBoxOf(root[1] ?? '')) problems.push('needs a viewBox on <svg> (so that it scales to any size)');
  for (const [pattern, problem] of FORBIDDEN) if (pattern.test(svg)) problems.push(problem);
  return problems;
}

function viewBoxOf(attributes: string): string | null {
  const value = /\bviewBox\s*=\s*["']([^"']+)["']/.exec(attributes)?.[1]?.trim();
  return value && /^-?[\d.]+(?:[\s,]+-?[\d.]+){3}$/.test(value) ? value : null;
}

/** The viewBox and the content of a logo that passed svgProblems. */
export function svgParts(svg: string): SvgParts {
  const root = SVG_ROOT.exec(svg);
  const viewBox = root && viewBoxOf(root[1] ?? '');
  if (!root || !viewBox) throw new Error('Not a logo SVG (check it with svgProblems first)');
  return { viewBox, inner: root[2] ?? '' };
}

/** The logo as a nested <svg> at (x, y), `size` wide and high, inside another drawing. */
export function placedSvg(logo: SvgParts, x: number, y: number, size: number): string {
  return `<svg x="${x}" y="${y}" width="${size}" height="${size}" viewBox="${logo.viewBox}">${logo.inner}</svg>`;
}

/**
 * The logo on a rounded tile of `background`, `size` px square, the mark at 3/4 of the tile:
 * the favicon and the app icons. `maskable`: a full square and the mark inside the central
 * 60 %, the safe zone that every launcher's mask keeps.
 */
export function tileSvg(logo: SvgParts, background: string, size: number, options: { maskable?: boolean } = {}): string {
  const mark = Math.round(size * (options.maskable ? 0.6 : 0.75));
  const offset = Math.round((size - mark) / 2);
  const radius = options.maskable ? 0 : Math.round(size * 0.22);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">` +
    `<rect width="${size}" height="${size}" rx="${radius}" fill="${background}"/>` +
    placedSvg(logo, offset, offset, mark) +
    '</svg>'
  );
}
