// A post of the blog, in the language it is written in (a post is offered only in its languages),
// with its author (name, role, photo, bio: content/authors or the CMS) and up to three related posts.
import { LOCALE_CODES } from '../../shared/locales.ts';
import { relatedPosts } from '../../shared/related-posts.ts';
import { localePath } from '../../shared/routes.ts';
import { notFound, PageRedirect } from '../http/errors.ts';
import type { PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'content'>;

export const loader = (async ({ services: { content }, locale, params }) => {
  const slug = params.slug ?? '';
  const post = await content.getPost(slug, locale);
  if (post) {
    const alternates = Object.fromEntries(Object.entries(post.translations).map(([l, s]) => [l, { slug: s }]));
    // Who wrote it and what to read next: neither decides the page (a source that fails them logged why).
    const [author, related] = await Promise.all([
      content.getAuthor(post.author, locale).catch(() => null),
      content
        .listPosts(locale)
        .then((posts) => relatedPosts(posts, post))
        .catch(() => []),
    ]);
    return { data: { post, author, related }, meta: { title: post.title, description: post.description, alternates, article: post } };
  }
  // A slug of another language (a link shared before switching): its translation here, else
  // the post in the language it is written in — never its text under this language's URL.
  for (const other of LOCALE_CODES.filter((l) => l !== locale)) {
    const found = (await content.listPosts(other)).find((p) => p.slug === slug);
    const translated = found?.translations[locale];
    if (translated) throw new PageRedirect(localePath('blog-slug', locale, { slug: translated }), 301);
    if (found) throw new PageRedirect(localePath('blog-slug', other, { slug }), 302);
  }
  throw notFound();
}) satisfies PageLoader<unknown, Uses>;
