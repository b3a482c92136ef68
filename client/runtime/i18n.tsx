// The pages' translations, as components read them: `useI18n()` gives the locale and i18next's
// fixed `t` for it. The provider (client/translations.tsx) makes them; kept apart so that the
// pages' chunks share this small module and i18next itself stays in the entry.
import { createContext, useContext } from 'react';
import type { Locale } from '../../shared/locales.ts';
import type { Translate } from '../../shared/translate.ts';

export type I18nValue = {
  locale: Locale;
  t: Translate;
  /** Whether the locale switcher records the visitor's choice in the i18n_redirected cookie. */
  localeCookie: boolean;
};

export const I18nContext = createContext<I18nValue | null>(null);

export function useI18n(): I18nValue {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside <I18nProvider>');
  return value;
}
