// What a client navigation changes outside React's root: <html lang>, title, description,
// canonical and hreflang links, robots, social tags and feed links (part of the navigator).
import type { Locale } from '../../shared/locales.ts';
import type { Head } from '../../shared/page-data.ts';

function append(tag: string, attributes: Record<string, string>): void {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  document.head.append(element);
}

export function applyHead(head: Head, locale: Locale): void {
  document.documentElement.lang = locale;
  document.title = head.title;
  document.querySelector('meta[name="description"]')?.setAttribute('content', head.description);
  document.querySelector('link[rel="canonical"]')?.setAttribute('href', head.canonical);
  document.querySelectorAll('link[rel="alternate"][hreflang]').forEach((el) => el.remove());
  for (const alt of head.alternates) {
    const link = document.createElement('link');
    link.rel = 'alternate';
    link.hreflang = alt.hrefLang;
    link.href = alt.href;
    document.head.append(link);
  }
  document.querySelectorAll('link[rel="prev"],link[rel="next"]').forEach((el) => el.remove());
  for (const rel of ['prev', 'next'] as const) {
    const href = head[rel];
    if (href) document.head.append(Object.assign(document.createElement('link'), { rel, href }));
  }
  let robots = document.querySelector('meta[name="robots"]');
  if (head.robots) {
    if (!robots) {
      robots = document.createElement('meta');
      robots.setAttribute('name', 'robots');
      document.head.append(robots);
    }
    robots.setAttribute('content', head.robots);
  } else robots?.remove();
  // The social tags and feed links as the server writes them (render-page.tsx); the JSON-LD
  // (server-only) goes: none is better than the page before's.
  document
    .querySelectorAll('meta[property],meta[name^="twitter:"],link[rel="alternate"][type],script[type="application/ld+json"]')
    .forEach((el) => el.remove());
  for (const [key, content] of head.social ?? []) append('meta', { [key.startsWith('twitter:') ? 'name' : 'property']: key, content });
  for (const feed of head.feeds ?? []) append('link', { rel: 'alternate', ...feed });
}
