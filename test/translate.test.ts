// The pages' translation (client/runtime/i18n.tsx): i18next's own `t`, fed the messages of
// locales/<locale>/common.json — the same files and options as the server's i18next, so that a
// page renders the same text on both sides.
import { expect, test } from 'vitest';
import { translatorFor } from '../client/translations.tsx';
import en from '../locales/en/common.json' with { type: 'json' };
import es from '../locales/es/common.json' with { type: 'json' };
import { createI18n } from '../server/i18n/index.ts';
import { PATHS } from '../server/base/paths.ts';

const messages = { area: { count_one: '{{count}} proyecto', count_other: '{{count}} proyectos', plain: 'Hola, {{name}}' } };

test('a count picks the _one key for 1 and the _other key for any other number', () => {
  const t = translatorFor('es', messages);
  expect(t('area.count', { count: 1 })).toBe('1 proyecto');
  expect(t('area.count', { count: 0 })).toBe('0 proyectos');
  expect(t('area.count', { count: 12 })).toBe('12 proyectos');
});

test('values are interpolated as they are (React escapes what it renders); a missing key is itself', () => {
  const t = translatorFor('en', { greet: 'Hi, {{name}}' });
  expect(t('greet', { name: '<b>Ana</b>' })).toBe('Hi, <b>Ana</b>');
  expect(t('area.missing', { count: 1 })).toBe('area.missing');
});

test('the browser’s i18next answers exactly what the server’s does, for every message of both locales', async () => {
  const server = await createI18n(PATHS.locales);
  const params = { count: 2, name: 'Ana', siteName: 'the product', tag: 'Datos', page: '2', q: 'x' };
  for (const [locale, bundle] of [
    ['es', es],
    ['en', en],
  ] as const) {
    const client = translatorFor(locale, bundle);
    const fixed = server.getFixedT(locale);
    const keys: string[] = [];
    const walk = (node: object, prefix: string) => {
      for (const [key, value] of Object.entries(node)) {
        const path = prefix ? `${prefix}.${key}` : key;
        if (typeof value === 'string') keys.push(path.replace(/_(one|other)$/, ''));
        else walk(value as object, path);
      }
    };
    walk(bundle, '');
    for (const key of new Set(keys)) expect(client(key, params), key).toBe(fixed(key, params));
  }
});
