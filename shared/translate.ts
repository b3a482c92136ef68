// The translation function as the pages use it (client/runtime/i18n.tsx: i18next's fixed `t` on both
// sides). The messages are locales/{lng}/common.json, with i18next's `{{name}}` interpolation
// and its `_one` / `_other` plural keys.

export type Messages = { [key: string]: string | Messages };
export type TranslateParams = Record<string, string | number>;
export type Translate = (key: string, params?: TranslateParams) => string;
