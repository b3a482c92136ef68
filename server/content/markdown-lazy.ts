// The Markdown renderer (marked + sanitize-html) costs ~100 ms to load: it is loaded only when
// some Markdown was not rendered at build time (content edited since, or CMS content).
import type * as MarkdownModule from './markdown.ts';

let loading: Promise<typeof MarkdownModule> | undefined;

export function loadMarkdown(): Promise<typeof MarkdownModule> {
  loading ??= import('./markdown.ts');
  return loading;
}
