// The translation function used by React components on both sides. The messages come from
// locales/{lng}/common.json (loaded on the server by i18next-fs-backend) and use i18next's
// `{{name}}` interpolation, so the same files serve i18next on the server and this tiny
// function in the browser bundle (i18next itself would cost ~15 kB of first-load JS).

export type Messages = { [key: string]: string | Messages };
export type TranslateParams = Record<string, string | number>;
export type Translate = (key: string, params?: TranslateParams) => string;

function lookup(messages: Messages, key: string): string | undefined {
  let node: string | Messages | undefined = messages;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export function createTranslate(messages: Messages, fallback?: Messages): Translate {
  const find = (key: string) => lookup(messages, key) ?? (fallback ? lookup(fallback, key) : undefined);
  return (key, params) => {
    // i18next's plural keys: `key_one` / `key_other` when a `count` is given (es and en alike).
    const plural = typeof params?.count === 'number' ? find(`${key}_${params.count === 1 ? 'one' : 'other'}`) : undefined;
    const template = plural ?? find(key) ?? key;
    if (!params) return template;
    return template.replace(/\{\{\s*([a-zA-Z0-9_]+)\s*\}\}/g, (whole, name: string) =>
      Object.hasOwn(params, name) ? String(params[name]) : whole,
    );
  };
}
