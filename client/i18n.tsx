import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { Locale } from '../shared/locales.ts';
import { createTranslate, type Messages, type Translate } from '../shared/translate.ts';

type I18nValue = { locale: Locale; t: Translate; messages: Messages };

const I18nContext = createContext<I18nValue | null>(null);

export function I18nProvider({ locale, messages, children }: { locale: Locale; messages: Messages; children: ReactNode }) {
  const value = useMemo(() => ({ locale, messages, t: createTranslate(messages) }), [locale, messages]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18nValue {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside <I18nProvider>');
  return value;
}
