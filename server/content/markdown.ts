// Markdown → sanitised HTML, done once when content is loaded, never per request.
// Images: only those the Content-Security-Policy lets the browser show are kept, same-origin
// paths and https URLs on CMS_MEDIA_HOSTS (shared/media.ts); any other image is dropped, so a
// page never carries an image the CSP would block (a broken image and a CSP report).
// An embedded post's own images (`![alt](figure.png)`, a file beside the Markdown) become the
// build's renditions: srcset, sizes, width, height, lazy loading. Those attributes are ours
// alone: whatever the Markdown says of them is dropped, and ours must point at /assets/content.
import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';
import { allowedImageSrc } from '../../shared/media.ts';
import { isContentImageUrl } from './image-manifest.ts';

/** A post's own image as the page shows it (server/content/images.ts). */
export type LocalImage = { src: string; width: number; height: number; srcset?: string; sizes?: string };

export type SanitizeOptions = {
  /** CMS_MEDIA_HOSTS: https images on these hosts are kept (the CSP's img-src lists them). */
  mediaHosts?: readonly string[];
  /** Rewrites an image src or a link href before it is checked (CMS uploads → /cms/uploads/…); null keeps it. */
  rewriteUrl?: (url: string) => string | null;
  /**
   * The image a relative src (`figure.png`) stands for; null drops the image. Without it, a
   * relative src is dropped like any other the CSP would not show.
   */
  localImage?: (src: string) => LocalImage | null;
};

/** A src with no scheme and no leading slash: a file beside the Markdown. */
function isRelativeSrc(src: string): boolean {
  return src !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(src) && !/^[/\\]/.test(src);
}

/** Only the site's generated image URLs get a srcset: every candidate is checked. */
function isGenerated(image: LocalImage): boolean {
  if (!isContentImageUrl(image.src)) return false;
  if (image.srcset === undefined) return true;
  return image.srcset.split(', ').every((candidate) => {
    const [url, width, ...rest] = candidate.split(' ');
    return rest.length === 0 && url !== undefined && isContentImageUrl(url) && /^[1-9][0-9]{0,4}w$/.test(width ?? '');
  });
}

/** The attributes of a post's own image: ours, plus the author's alt and title. */
function localImageAttributes(image: LocalImage, attribs: sanitizeHtml.Attributes): sanitizeHtml.Attributes {
  return {
    src: image.src,
    ...(image.srcset ? { srcset: image.srcset, sizes: image.sizes ?? '100vw' } : {}),
    width: String(image.width),
    height: String(image.height),
    alt: attribs.alt ?? '',
    ...(attribs.title ? { title: attribs.title } : {}),
    loading: 'lazy',
    decoding: 'async',
  };
}

/** What only localImageAttributes may set on an image. */
const GENERATED_ONLY = new Set(['srcset', 'sizes', 'loading', 'decoding']);

const marked = new Marked({
  gfm: true,
  async: false,
  // A bare `www.` address (GFM's extended autolink) is linked to https, not to the http marked gives it.
  walkTokens(token) {
    if (token.type === 'link' && token.raw === token.text && /^www\./i.test(token.raw) && token.href === `http://${token.raw}`) {
      token.href = `https://${token.raw}`;
    }
  },
});

/** The schemes a link may have (sanitize-html drops any other href); an image is https only (the CSP). */
const LINK_SCHEMES = ['https', 'http', 'mailto'];

/**
 * Whether sanitize-html keeps this href: relative (not protocol-relative), or of a scheme in
 * LINK_SCHEMES, read as it reads it (control characters and spaces are no part of a scheme).
 */
function keepsHref(href: string): boolean {
  // eslint-disable-next-line no-control-regex -- the characters sanitize-html ignores in a scheme
  const bare = href.replace(/[\u0000-\u0020]+/g, '');
  if (bare.startsWith('//')) return false;
  const scheme = /^([a-zA-Z][a-zA-Z0-9.\-+]*):/.exec(bare);
  return !scheme || LINK_SCHEMES.includes(scheme[1]!.toLowerCase());
}

function sanitizeOptions({ mediaHosts = [], rewriteUrl = () => null, localImage }: SanitizeOptions): sanitizeHtml.IOptions {
  const rewrite = (url: string | undefined) => (url === undefined ? undefined : (rewriteUrl(url) ?? url));
  return {
    allowedTags: [
      'h2', 'h3', 'h4', 'p', 'a', 'ul', 'ol', 'li', 'strong', 'em', 'code', 'pre', 'blockquote',
      'hr', 'br', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'img', 'del',
    ],
    allowedAttributes: {
      a: ['href', 'title', 'rel', 'target'],
      img: ['src', 'alt', 'title', 'width', 'height', 'srcset', 'sizes', 'loading', 'decoding'],
    },
    allowedSchemes: LINK_SCHEMES,
    allowedSchemesByTag: { img: ['https'] },
    allowProtocolRelative: false,
    transformTags: {
      // Headings start at h2: the page title is the h1.
      h1: 'h2',
      // A link that keeps no href keeps no target or rel either: never an <a target> to nowhere.
      a: (tagName, attribs) => {
        const href = rewrite(attribs.href);
        const { href: _given, target: _target, rel: _rel, ...rest } = attribs;
        if (href === undefined || !keepsHref(href)) return { tagName, attribs: rest };
        const external = /^https?:/i.test(href.trim());
        return { tagName, attribs: external ? { ...rest, href, rel: 'noopener noreferrer', target: '_blank' } : { ...attribs, href } };
      },
      img: (tagName, attribs) => {
        if (localImage && attribs.src !== undefined && isRelativeSrc(attribs.src)) {
          const image = localImage(attribs.src);
          return { tagName, attribs: image && isGenerated(image) ? localImageAttributes(image, attribs) : {} };
        }
        const allowed = allowedImageSrc(rewrite(attribs.src), mediaHosts);
        // The attributes keep their order; src is replaced, or removed when refused.
        const kept = Object.entries(attribs).flatMap(([name, value]): [string, string][] =>
          GENERATED_ONLY.has(name) ? [] : name !== 'src' ? [[name, value]] : allowed ? [[name, allowed]] : [],
        );
        return { tagName, attribs: Object.fromEntries(kept) };
      },
    },
    // An image whose src was refused is dropped whole (no empty <img>).
    exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
  };
}

const DEFAULT_OPTIONS = sanitizeOptions({});

export function markdownToSafeHtml(markdown: string, options?: SanitizeOptions): string {
  const html = marked.parse(markdown) as string;
  return sanitizeHtml(html, options ? sanitizeOptions(options) : DEFAULT_OPTIONS).trim();
}

/**
 * The relative image srcs of `markdown` (`figure.png`, also in raw HTML), in order, once each:
 * found by the sanitiser itself, so that they are exactly the ones localImage will be asked for.
 */
export function localImageNames(markdown: string): string[] {
  const found = new Set<string>();
  markdownToSafeHtml(markdown, {
    localImage: (src) => {
      found.add(src);
      return null;
    },
  });
  return [...found];
}
