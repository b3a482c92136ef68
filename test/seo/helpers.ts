// Shared pieces of the SEO tests: a content source with posts of the test's own (tags, covers,
// hostile titles), and readers of what a page's <head> says.
import type { ContentSource } from '../../server/content/source.ts';
import type { Locale } from '../../shared/locales.ts';
import type { Post } from '../../shared/page-data.ts';

export type TestPost = Post;

/** A cover as the sources give it: the largest rendition as `src`, with its size. */
export function testCover(src: string): NonNullable<Post['cover']> {
  return { src, width: 1200, height: 630, alt: 'A cover' };
}

export function testPost(fields: Partial<TestPost> & Pick<TestPost, 'slug'>): TestPost {
  return {
    title: `Post ${fields.slug}`,
    description: `About ${fields.slug}.`,
    date: '2026-01-15',
    author: 'Ana Ruiz',
    locale: 'es',
    tags: [],
    cover: null,
    html: '<p>Text.</p>',
    ...fields,
    translations: fields.translations ?? { [fields.locale ?? 'es']: fields.slug },
  };
}

/** Posts of both languages, newest first like the real sources; no legal pages. */
export function contentOf(posts: TestPost[]): ContentSource {
  const inLocale = (locale: Locale) =>
    posts.filter((p) => p.locale === locale).sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));
  return {
    listPosts: async (locale) => inLocale(locale).map(({ html: _html, ...summary }) => summary),
    getPost: async (slug, locale) => inLocale(locale).find((p) => p.slug === slug) ?? null,
    getLegal: async () => null,
    getHome: async () => null,
    listCaseStudies: async () => [],
    listPractices: async () => [],
    getAuthor: async () => null,
  };
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
function decode(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity);
}

export function headOf(html: string): string {
  const end = html.indexOf('</head>');
  if (end < 0) throw new Error('The page has no </head>');
  return html.slice(0, end);
}

/** The head's social tags (<meta property=…> and <meta name="twitter:…">), in order, values decoded. */
export function metaTags(html: string): [string, string][] {
  return [...headOf(html).matchAll(/<meta (?:property="([^"]+)"|name="(twitter:[^"]+)") content="([^"]*)">/g)].map(
    (m): [string, string] => [decode(m[1] ?? m[2]!), decode(m[3]!)],
  );
}

/** The content of the first meta tag of a property (og:title) or name (twitter:card). */
export function meta(html: string, key: string): string | undefined {
  return metaTags(html).find(([k]) => k === key)?.[1];
}

export function metaAll(html: string, key: string): string[] {
  return metaTags(html)
    .filter(([k]) => k === key)
    .map(([, v]) => v);
}

export function canonicalOf(html: string): string | undefined {
  const m = /<link rel="canonical" href="([^"]+)">/.exec(headOf(html));
  return m ? decode(m[1]!) : undefined;
}

/** The JSON-LD scripts of the head: their nonce and parsed content. */
export function jsonLdScripts(html: string): { nonce: string | undefined; raw: string; data: Record<string, unknown> }[] {
  return [...headOf(html).matchAll(/<script type="application\/ld\+json"(?: nonce="([^"]*)")?>([\s\S]*?)<\/script>/g)].map((m) => ({
    nonce: m[1],
    raw: m[2]!,
    data: JSON.parse(m[2]!) as Record<string, unknown>,
  }));
}

/** The <link rel="alternate" type=…> feed links of the head. */
export function feedLinksOf(html: string): { type: string; title: string; href: string }[] {
  return [...headOf(html).matchAll(/<link rel="alternate" type="([^"]+)" title="([^"]*)" href="([^"]+)">/g)].map((m) => ({
    type: m[1]!,
    title: decode(m[2]!),
    href: decode(m[3]!),
  }));
}
