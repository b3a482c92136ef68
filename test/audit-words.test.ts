// The audit log in words, in both languages: every action the server can write and every fact it
// can attach (server/audit/types.ts, whose types hold every caller to them) has its sentence in
// locales/<lng>/common.json, so that the console never shows a raw key ("purpose: sign_in ·
// reason: wrong").
import { expect, test } from 'vitest';
import { detailText, factText } from '../client/admin/audit/audit-text.ts';
import { translatorFor } from '../client/translations.tsx';
import en from '../locales/en/common.json' with { type: 'json' };
import es from '../locales/es/common.json' with { type: 'json' };
import { AUDIT_ACTION_FACTS, AUDIT_ACTIONS, AUDIT_FACTS, AUDIT_ROLES, type AuditFact } from '../server/audit/types.ts';
import type { AuditRecord } from '../shared/audit.ts';
import type { Messages } from '../shared/translate.ts';

const LOCALES = [
  ['es', es],
  ['en', en],
] as const;

/** The message at a dotted key, or undefined. */
function messageAt(messages: Messages, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Messages)[part] : undefined), messages);
}

/** A value of each kind of fact, as the server would write it. */
function sampleOf(fact: AuditFact): string | number | boolean {
  const kind = AUDIT_FACTS[fact];
  if (Array.isArray(kind)) return kind[0]!;
  if (kind === 'role') return 'CLI';
  if (kind === 'number') return 3;
  if (kind === 'boolean') return true;
  return '2026-12-03';
}

test.each(LOCALES.flatMap(([locale, messages]) => AUDIT_ACTIONS.map((action) => [locale, action, messages] as const)))(
  'the action %s/%s the server can write has its words',
  (_locale, action, messages) => {
    const words = messageAt(messages, `adminAudit.actions.${action}`);
    expect(typeof words === 'string' && words.trim().length > 0).toBe(true);
  },
);

test.each(LOCALES.flatMap(([locale, messages]) => Object.keys(AUDIT_FACTS).map((fact) => [locale, fact as AuditFact, messages] as const)))(
  'the fact %s/%s has a sentence, and each word it may hold has its words',
  (_locale, fact, messages) => {
    const kind = AUDIT_FACTS[fact];
    const facts = `adminAudit.facts.${fact}`;
    if (kind === 'boolean') {
      expect(typeof messageAt(messages, `${facts}.true`)).toBe('string');
      expect(typeof messageAt(messages, `${facts}.false`)).toBe('string');
      return;
    }
    const sentence = messageAt(messages, facts) ?? messageAt(messages, `${facts}_other`);
    expect(sentence).toEqual(expect.stringContaining('{{value}}'));
    if (Array.isArray(kind)) {
      for (const word of kind) expect(typeof messageAt(messages, `adminAudit.values.${fact}.${word}`), `${fact}.${word}`).toBe('string');
    }
  },
);

test('every fact of the table is one some action records', () => {
  const used = new Set(Object.values(AUDIT_ACTION_FACTS).flat());
  expect(Object.keys(AUDIT_FACTS).filter((fact) => !used.has(fact as AuditFact))).toEqual([]);
});

test.each(LOCALES.flatMap(([locale, messages]) => AUDIT_ACTIONS.map((action) => [locale, action, messages] as const)))(
  'an entry %s/%s with every fact it may carry reads as words, no key and no placeholder in it',
  (locale, action, messages) => {
    const t = translatorFor(locale, messages as Messages);
    const facts = AUDIT_ACTION_FACTS[action] as readonly AuditFact[];
    const record: AuditRecord = {
      id: 1,
      at: '2026-12-03T10:00:00.000Z',
      action,
      actor: 'ada',
      target: 'carla',
      ip: null,
      detail: Object.fromEntries(facts.map((fact) => [fact, sampleOf(fact)])),
    };
    const text = detailText(t, locale, record);
    expect(text.includes('{{')).toBe(false);
    // "key: value" is how a fact without words reads.
    for (const fact of facts) expect(text, `${action}: ${fact}`).not.toContain(`${fact}:`);
    if (action !== 'role_changed') expect(text ? text.split(' · ') : []).toHaveLength(facts.length);
  },
);

test.each(LOCALES.flatMap(([locale, messages]) => AUDIT_ROLES.map((role) => [locale, role, messages] as const)))(
  'the role %s/%s a fact names is in words',
  (locale, role, messages) => {
    const t = translatorFor(locale, messages as Messages);
    const text = factText(t, locale, 'role', role);
    expect(text).not.toContain(role);
  },
);

test('the Spanish console words a failed two-factor code as sentences, not keys', () => {
  const t = translatorFor('es', es as Messages);
  const record: AuditRecord = {
    id: 1,
    at: '2026-12-03T10:00:00.000Z',
    action: 'two_factor_failed',
    actor: null,
    target: 'ana',
    ip: null,
    detail: { purpose: 'sign_in', reason: 'wrong', kind: 'totp' },
  };
  expect(detailText(t, 'es', record)).toBe('Al iniciar sesión · El código no era correcto · Se escribió un código de la aplicación');
});

test('a count picks its plural and is written in the locale’s style', () => {
  const t = translatorFor('es', es as Messages);
  expect(factText(t, 'es', 'sessionsEnded', 1)).toBe('Se cerró 1 sesión');
  expect(factText(t, 'es', 'bytes', 1_500_000)).toBe('1.500.000 bytes');
  expect(factText(translatorFor('en', en as Messages), 'en', 'bytes', 1_500_000)).toBe('1,500,000 bytes');
});

test('a fact a later version writes, unknown here, still shows as key and value', () => {
  const t = translatorFor('en', en as Messages);
  expect(factText(t, 'en', 'colour', 'teal')).toBe('colour: teal');
});
