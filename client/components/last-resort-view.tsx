import type { Locale } from '../../shared/locales.ts';
import { lastResortTexts } from '../../shared/last-resort.ts';

/**
 * The page shown when the error page itself (or the layout around it) fails.
 * No messages, no router, no layout: nothing here can fail again. The link is a plain one, so
 * that home loads as a fresh document.
 */
export function LastResortView({ locale }: { locale: Locale }) {
  const texts = lastResortTexts(locale);
  return (
    <main className="last-resort" lang={locale}>
      <h1>{texts.title}</h1>
      <p>
        <a href={texts.href}>{texts.home}</a>
      </p>
    </main>
  );
}
