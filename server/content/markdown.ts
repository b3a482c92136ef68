// Markdown → sanitised HTML, done once when content is loaded, never per request.
// Images: only those the Content-Security-Policy lets the browser show are kept, same-origin
// paths and https URLs on CMS_MEDIA_HOSTS (shared/media.ts); any other image is dropped, so a
// page never carries an image the CSP would block (a broken image and a CSP report).
import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';
import { allowedImageSrc } from '../../shared/media.ts';

export type SanitizeOptions = {
  /** CMS_MEDIA_HOSTS: https images on these hosts are kept (the CSP's img-src lists them). */
  mediaHosts?: readonly string[];
  /** Rewrites an image src or a link href before it is checked (CMS uploads → /cms/uploads/…); null keeps it. */
  rewriteUrl?: (url: string) => string | null;
};

const marked = new Marked({ gfm: true, async: false });

function sanitizeOptions({ mediaHosts = [], rewriteUrl = () => null }: SanitizeOptions): sanitizeHtml.IOptions {
  const rewrite = (url: string | undefined) => (url === undefined ? undefined : (rewriteUrl(url) ?? url));
  return {
    allowedTags: [
      'h2', 'h3', 'h4', 'p', 'a', 'ul', 'ol', 'li', 'strong', 'em', 'code', 'pre', 'blockquote',
      'hr', 'br', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'img', 'del',
    ],
    allowedAttributes: { a: ['href', 'title', 'rel', 'target'], img: ['src', 'alt', 'title', 'width', 'height'] },
    allowedSchemes: ['https', 'mailto'],
    allowedSchemesByTag: { img: ['https'] },
    allowProtocolRelative: false,
    transformTags: {
      // Headings start at h2: the page title is the h1.
      h1: 'h2',
      a: (tagName, attribs) => {
        const href = rewrite(attribs.href);
        const rewritten = href === undefined ? attribs : { ...attribs, href };
        const external = href !== undefined && /^https?:/i.test(href);
        return { tagName, attribs: external ? { ...rewritten, rel: 'noopener noreferrer', target: '_blank' } : rewritten };
      },
      img: (tagName, attribs) => {
        const allowed = allowedImageSrc(rewrite(attribs.src), mediaHosts);
        // The attributes keep their order; src is replaced, or removed when refused.
        const kept = Object.entries(attribs).flatMap(([name, value]): [string, string][] =>
          name !== 'src' ? [[name, value]] : allowed ? [[name, allowed]] : [],
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
