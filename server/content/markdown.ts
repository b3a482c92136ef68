// Markdown → sanitised HTML, done once when content is loaded, never per request.
import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

const marked = new Marked({ gfm: true, async: false });

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'h2', 'h3', 'h4', 'p', 'a', 'ul', 'ol', 'li', 'strong', 'em', 'code', 'pre', 'blockquote',
    'hr', 'br', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'img', 'del',
  ],
  allowedAttributes: { a: ['href', 'title'], img: ['src', 'alt', 'title', 'width', 'height'] },
  allowedSchemes: ['https', 'mailto'],
  allowedSchemesByTag: { img: ['https'] },
  allowProtocolRelative: false,
  transformTags: {
    // Headings start at h2: the page title is the h1.
    h1: 'h2',
    a: (tagName, attribs) => {
      const href = attribs.href ?? '';
      const external = /^https?:/i.test(href);
      return {
        tagName,
        attribs: external ? { ...attribs, rel: 'noopener noreferrer', target: '_blank' } : attribs,
      };
    },
  },
};
SANITIZE.allowedAttributes = { ...SANITIZE.allowedAttributes, a: ['href', 'title', 'rel', 'target'] };

export function markdownToSafeHtml(markdown: string): string {
  const html = marked.parse(markdown) as string;
  return sanitizeHtml(html, SANITIZE).trim();
}

export type FrontMatter = Record<string, string>;

/** A `---` block of `key: value` lines at the top of a file, and the body after it. */
export function parseFrontMatter(source: string, fileName: string): { attributes: FrontMatter; body: string } {
  const text = source.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const match = /^---\n([\s\S]*?)\n---\n?/.exec(text);
  if (!match) throw new Error(`${fileName}: missing front matter (a --- block with title, description…)`);
  const attributes: FrontMatter = {};
  for (const line of (match[1] ?? '').split('\n')) {
    if (!line.trim()) continue;
    const colon = line.indexOf(':');
    if (colon < 1) throw new Error(`${fileName}: front matter line is not "key: value": ${JSON.stringify(line)}`);
    const value = line.slice(colon + 1).trim().replace(/^(['"])(.*)\1$/, '$2');
    attributes[line.slice(0, colon).trim()] = value;
  }
  return { attributes, body: text.slice(match[0].length) };
}
