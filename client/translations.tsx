// i18next translates the pages on both sides. The server renders with its own i18next (one
// instance, its messages from locales/ by i18next-fs-backend, a fixed-language `t` per locale
// made at start: server/i18n/index.ts), handed in as `translate`. The browser hydrates with an
// i18next instance per locale fed the same namespace (`common`: the hashed JSON of the build,
// preloaded by the page, the other locale's fetched when switching), so that both sides agree.
import i18next from 'i18next';
import { useMemo, type ReactNode } from 'react';
import type { Locale } from '../shared/locales.ts';
import type { Messages, Translate } from '../shared/translate.ts';
import { I18nContext } from './runtime/i18n.tsx';

/** The namespace of the pages' messages (locales/<locale>/common.json). */
export const PAGE_NAMESPACE = 'common';

const translators = new Map<Locale, { messages: Messages; t: Translate }>();

/** The browser's i18next for a locale and its messages: made once (synchronously, the resources given) and kept. */
export function translatorFor(locale: Locale, messages: Messages): Translate {
  const known = translators.get(locale);
  if (known?.messages === messages) return known.t;
  const instance = i18next.createInstance();
  void instance.init({
    lng: locale,
    // The server's bundles are complete in every locale (a test compares their keys): nothing to fall back to.
    fallbackLng: false,
    ns: [PAGE_NAMESPACE],
    defaultNS: PAGE_NAMESPACE,
    resources: { [locale]: { [PAGE_NAMESPACE]: messages } },
    initAsync: false,
    // React escapes what it renders.
    interpolation: { escapeValue: false },
  });
  const t = instance.getFixedT(locale) as unknown as Translate;
  translators.set(locale, { messages, t });
  return t;
}

export function I18nProvider({
  locale,
  messages,
  translate,
  localeCookie = false,
  children,
}: {
  locale: Locale;
  messages: Messages;
  /** The server's fixed `t` for the locale; absent (the browser), an i18next instance of these messages. */
  translate?: Translate | undefined;
  localeCookie?: boolean;
  children: ReactNode;
}) {
  const value = useMemo(
    () => ({ locale, localeCookie, t: translate ?? translatorFor(locale, messages) }),
    [locale, messages, translate, localeCookie],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}
