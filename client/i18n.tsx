import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { Locale } from '../shared/locales.ts';
import { createTranslate, type Messages, type Translate } from '../shared/translate.ts';

type I18nValue = {
  locale: Locale;
  t: Translate;
  messages: Messages;
  /** Whether the locale switcher records the visitor's choice in the i18n_redirected cookie. */
  localeCookie: boolean;
};

const I18nContext = createContext<I18nValue | null>(null);

export function I18nProvider({
  locale,
  messages,
  localeCookie = false,
  children,
}: {
  locale: Locale;
  messages: Messages;
  localeCookie?: boolean;
  children: ReactNode;
}) {
  const value = useMemo(() => ({ locale, messages, localeCookie, t: createTranslate(messages) }), [locale, messages, localeCookie]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18nValue {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside <I18nProvider>');
  return value;
}
