// The translation function of the pages (shared/translate.ts): i18next's `{{name}}` and its
// plural keys, so that one set of message files serves the server's i18next and the browser.
import { expect, test } from 'vitest';
import { createTranslate } from '../shared/translate.ts';

const t = createTranslate({ area: { count_one: '{{count}} proyecto', count_other: '{{count}} proyectos', plain: 'Hola, {{name}}' } });

test('a count picks the _one key for 1 and the _other key for any other number', () => {
  expect(t('area.count', { count: 1 })).toBe('1 proyecto');
  expect(t('area.count', { count: 0 })).toBe('0 proyectos');
  expect(t('area.count', { count: 12 })).toBe('12 proyectos');
});

test('without plural keys a count is interpolated like any value; a missing key is itself', () => {
  expect(t('area.plain', { name: 'Ana', count: 3 })).toBe('Hola, Ana');
  expect(t('area.missing', { count: 1 })).toBe('area.missing');
});
