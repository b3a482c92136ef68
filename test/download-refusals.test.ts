// A download refused for now (429/503) shows a browser a page in the visitor's language that says
// what to do and how long to wait in words, for every refusal the downloads make.
import { expect, test } from 'vitest';
import { refusalPage } from '../server/downloads/refuse.ts';

const CODES = ['export_in_progress', 'exports_busy', 'too_many_exports', 'too_many_documents', 'documents_busy', 'too_many_downloads'];

test.each(CODES.flatMap((code) => (['es', 'en'] as const).map((locale) => ({ code, locale }))))(
  'the refusal $code has its own words in $locale, with the wait in minutes when it is long',
  ({ code, locale }) => {
    const html = refusalPage({ status: 429, retryAfterSeconds: 505, code, message: 'English for scripts' }, locale);
    expect(html).toContain(`<html lang="${locale}">`);
    expect(html).not.toContain('English for scripts');
    expect(html).toContain(locale === 'es' ? 'dentro de 9 minutos' : 'in 9 minutes');
    expect(html).toContain(locale === 'es' ? 'href="/"' : 'href="/en"');
  },
);

test('a refusal the site has no words for shows its message as it is, escaped', () => {
  const html = refusalPage({ status: 503, retryAfterSeconds: 30, code: 'something_new', message: 'Busy <now>' }, 'en');
  expect(html).toContain('<p>Busy &lt;now&gt;</p>');
  expect(html).toContain('<title>Try again in 30 seconds</title>');
});
