// Strapi 5 "blocks" rich text → Markdown, so that it goes through the same markdownToSafeHtml
// as Markdown content (one sanitiser for everything). Handled: paragraphs, headings, lists
// (nested too), quotes, code, images, links and bold/italic/strikethrough/code text.
// Text is escaped (every ASCII punctuation mark), so CMS text can never become Markdown syntax.
// Marks are written as inline HTML tags rather than `**`: delimiter runs fail next to
// punctuation (`**a.**b`), tags do not, and the sanitiser allows exactly these tags.

type Node = Record<string, unknown>;

export type BlocksOptions = {
  /** Maps a media URL to the URL to show (e.g. the /cms proxy path), or null to drop the image. */
  mediaUrl?: (url: unknown) => string | null;
};

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function childrenOf(node: Node): Node[] {
  return Array.isArray(node.children) ? node.children.filter(isNode) : [];
}

function escapeText(text: string): string {
  return text.replace(/[!-/:-@[-`{-~]/g, '\\$&').replace(/\r?\n/g, '<br>');
}

/** A URL as a Markdown link destination, or null when it cannot be written safely. */
function destination(url: unknown): string | null {
  if (typeof url !== 'string' || url.length === 0 || /[<>\s\\]/.test(url)) return null;
  return `<${url}>`;
}

function codeSpan(text: string): string {
  return `<code>${escapeText(text)}</code>`;
}

function renderText(node: Node): string {
  const text = typeof node.text === 'string' ? node.text : '';
  if (text === '') return '';
  let out = node.code === true ? codeSpan(text) : escapeText(text);
  if (node.strikethrough === true) out = `<del>${out}</del>`;
  if (node.italic === true) out = `<em>${out}</em>`;
  if (node.bold === true) out = `<strong>${out}</strong>`;
  return out;
}

function renderInline(nodes: Node[]): string {
  return nodes
    .map((node) => {
      if (node.type === 'link') {
        const label = renderInline(childrenOf(node));
        const href = destination(node.url);
        return href && label ? `[${label}](${href})` : label;
      }
      if (node.type === 'text' || typeof node.text === 'string') return renderText(node);
      // Unknown inline node: keep whatever text it holds.
      return renderInline(childrenOf(node));
    })
    .join('');
}

function plainText(nodes: Node[]): string {
  return nodes.map((node) => (typeof node.text === 'string' ? node.text : plainText(childrenOf(node)))).join('');
}

function renderList(node: Node): string[] {
  const ordered = node.format === 'ordered';
  const lines: string[] = [];
  let number = 0;
  let indent = ordered ? 3 : 2;
  const nest = (list: Node) => lines.push(...renderList(list).map((line) => `${' '.repeat(indent)}${line}`));
  for (const child of childrenOf(node)) {
    // Strapi puts a nested list beside the items (with an indentLevel); other editors inside one.
    if (child.type === 'list') {
      nest(child);
      continue;
    }
    number += 1;
    const marker = ordered ? `${number}. ` : '- ';
    indent = marker.length;
    const parts = childrenOf(child);
    lines.push(`${marker}${renderInline(parts.filter((p) => p.type !== 'list')).trim()}`);
    for (const inner of parts.filter((p) => p.type === 'list')) nest(inner);
  }
  return lines;
}

function renderCode(node: Node): string {
  const code = plainText(childrenOf(node)).replace(/\r\n/g, '\n');
  const longestRun = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  const language = typeof node.language === 'string' && /^[\w+#.-]{1,30}$/.test(node.language) ? node.language : '';
  return `${fence}${language}\n${code}\n${fence}`;
}

function renderImage(node: Node, options: BlocksOptions): string {
  const image = isNode(node.image) ? node.image : null;
  const src = destination(options.mediaUrl ? options.mediaUrl(image?.url) : image?.url);
  if (!image || !src) return '';
  const alt = typeof image.alternativeText === 'string' ? image.alternativeText : '';
  return `![${escapeText(alt)}](${src})`;
}

function renderBlock(node: Node, options: BlocksOptions): string {
  switch (node.type) {
    case 'heading': {
      const level = typeof node.level === 'number' ? Math.min(6, Math.max(1, Math.trunc(node.level))) : 2;
      const text = renderInline(childrenOf(node)).trim();
      return text ? `${'#'.repeat(level)} ${text}` : '';
    }
    case 'list':
      return renderList(node).join('\n');
    case 'quote': {
      const text = renderInline(childrenOf(node)).trim();
      return text ? `> ${text}` : '';
    }
    case 'code':
      return renderCode(node);
    case 'image':
      return renderImage(node, options);
    default:
      // Paragraphs, and any unknown block that holds text.
      return renderInline(childrenOf(node)).trim();
  }
}

/** Strapi 5 blocks (an array of block nodes) as Markdown; anything unreadable is left out. */
export function blocksToMarkdown(blocks: unknown, options: BlocksOptions = {}): string {
  if (!Array.isArray(blocks)) return '';
  return blocks
    .filter(isNode)
    .map((block) => renderBlock(block, options))
    .filter((markdown) => markdown !== '')
    .join('\n\n');
}
