import type { Locale } from '../shared/locales.ts';
import type { Messages } from '../shared/translate.ts';
import type { BootData } from './boot.ts';

const messageCache = new Map<Locale, Messages>();

/**
 * A locale's messages: the hashed JSON file of the build (immutable, preloaded by the page for
 * its own locale), one request per locale, then cached; the other locale's on demand when
 * switching.
 */
export async function messagesFor(locale: Locale, boot: Pick<BootData, 'messageUrls'>): Promise<Messages> {
  const cached = messageCache.get(locale);
  if (cached) return cached;
  const response = await fetch(boot.messageUrls[locale]);
  if (!response.ok) throw new Error(`Messages for ${locale} answered ${response.status}`);
  const messages = (await response.json()) as Messages;
  messageCache.set(locale, messages);
  return messages;
}
