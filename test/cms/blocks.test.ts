import { expect, test } from 'vitest';
import { blocksToMarkdown } from '../../server/cms/blocks.ts';
import { markdownToSafeHtml } from '../../server/content/markdown.ts';

const text = (value: string, marks: Record<string, boolean> = {}) => ({ type: 'text', text: value, ...marks });
const paragraph = (...children: unknown[]) => ({ type: 'paragraph', children });
const html = (blocks: unknown[]) => markdownToSafeHtml(blocksToMarkdown(blocks));

test('paragraphs and headings become Markdown; headings start at h2 on the page', () => {
  expect(blocksToMarkdown([{ type: 'heading', level: 2, children: [text('Title')] }, paragraph(text('Body'))])).toBe('## Title\n\nBody');
  expect(html([{ type: 'heading', level: 1, children: [text('Top')] }])).toBe('<h2>Top</h2>');
});

test('bold, italic, strikethrough and code text keep their formatting, also next to punctuation', () => {
  expect(
    html([
      paragraph(
        text('a.', { bold: true }),
        text('b'),
        text('c', { italic: true }),
        text('d', { strikethrough: true }),
        text('x*y', { code: true }),
      ),
    ]),
  ).toBe('<p><strong>a.</strong>b<em>c</em><del>d</del><code>x*y</code></p>');
});

test('links keep their text and URL; a javascript: link loses its href', () => {
  expect(html([paragraph({ type: 'link', url: '/en/blog', children: [text('blog')] })])).toBe('<p><a href="/en/blog">blog</a></p>');
  expect(html([paragraph({ type: 'link', url: 'javascript:alert(1)', children: [text('x')] })])).not.toMatch(/javascript/);
  expect(html([paragraph({ type: 'link', url: 'https://x.test/a b', children: [text('spaced')] })])).toBe('<p>spaced</p>');
});

test('ordered and unordered lists, nested the Strapi way (a list beside the items), become nested lists', () => {
  const blocks = [
    {
      type: 'list',
      format: 'ordered',
      children: [
        { type: 'list-item', children: [text('one')] },
        { type: 'list', format: 'unordered', indentLevel: 1, children: [{ type: 'list-item', children: [text('inner')] }] },
        { type: 'list-item', children: [text('two')] },
      ],
    },
  ];
  expect(blocksToMarkdown(blocks)).toBe('1. one\n   - inner\n2. two');
  expect(html(blocks).replace(/\n/g, '')).toBe('<ol><li>one<ul><li>inner</li></ul></li><li>two</li></ol>');
});

test('quotes and code blocks are kept; code is not escaped and survives backticks inside', () => {
  expect(html([{ type: 'quote', children: [text('Wise words')] }]).replace(/\n/g, '')).toBe('<blockquote><p>Wise words</p></blockquote>');
  const code = 'const a = `x`;\n```\n<b>';
  expect(html([{ type: 'code', children: [text(code)] }])).toBe(
    `<pre><code>${code.replace('<', '&lt;').replace('>', '&gt;')}\n</code></pre>`,
  );
});

test('text written by the CMS can never become Markdown or HTML syntax', () => {
  const hostile = '# h\n- item\n<script>alert(1)</script> [x](javascript:alert(1)) **b** &amp; `c`';
  const out = html([paragraph(text(hostile))]);
  expect(out).not.toMatch(/<h\d|<li|<script|<a |<strong|<code/);
  expect(out).toContain('&lt;script&gt;');
  expect(out).toContain('&amp;amp;');
});

test('images are shown only through mediaUrl; an image it refuses is left out', () => {
  const image = { type: 'image', image: { url: '/uploads/team.jpg', alternativeText: 'The [team]' }, children: [text('')] };
  expect(blocksToMarkdown([image], { mediaUrl: (url) => `/cms${String(url)}` })).toBe('![The \\[team\\]](</cms/uploads/team.jpg>)');
  expect(blocksToMarkdown([image], { mediaUrl: () => null })).toBe('');
});

test('unreadable input gives empty Markdown rather than an error', () => {
  expect(blocksToMarkdown('not blocks')).toBe('');
  expect(blocksToMarkdown([null, 3, { type: 'paragraph', children: 'x' }, { type: 'mystery', children: [text('kept')] }])).toBe('kept');
});
