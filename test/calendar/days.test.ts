// The days the site takes (server/calendar/days.ts): every real day YYYY-MM-DD can write, from
// 0000-01-01 to 9999-12-31, one rule for the audit filter, the PDF reports' range and the
// projects' dates; each turned into the instants stored timestamps are compared with.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { PATHS } from '../../server/base/paths.ts';
import { addDays, createdAtRange, FIRST_DAY, isIsoDay, LAST_DAY, madridDayStart } from '../../server/calendar/days.ts';
import { renderCalendar } from '../../server/calendar-feed/ics.ts';
import { briefSchema, milestoneSchema } from '../../server/projects/schemas.ts';
import { parseReportQuery } from '../../server/pdf/report-query.ts';
import { auditQuery } from '../../server/audit/query.ts';

test.each([FIRST_DAY, '0001-01-01', '0050-06-15', '0099-12-31', '0100-01-01', '1999-12-31', '2101-01-01', '9999-12-30', LAST_DAY])(
  '%s is a day: every year 0000–9999 is one, the first and the last included',
  (day) => {
    expect(isIsoDay(day)).toBe(true);
    expect(parseReportQuery({ from: day, to: day }, { dates: true })).toEqual({ ok: true, query: { page: 1, from: day, to: day } });
    expect(auditQuery.safeParse({ from: day, to: day }).success).toBe(true);
    expect(milestoneSchema.safeParse({ title: 'Kick-off', dueDate: day }).success).toBe(true);
    expect(briefSchema.safeParse({ title: 'T', description: 'D', practice: 'data', deadline: day }).success).toBe(true);
  },
);

test.each(['0000-00-00', '0000-02-30', '0100-02-29', '2026-02-29', '10000-01-01', '+10000-01-01', '-0001-01-01', '999-12-31', '2026-1-1'])(
  '%s is not a day, on every route alike',
  (value) => {
    expect(isIsoDay(value)).toBe(false);
    expect(parseReportQuery({ to: value }, { dates: true }).ok).toBe(false);
    expect(auditQuery.safeParse({ to: value }).success).toBe(false);
    expect(milestoneSchema.safeParse({ title: 'Kick-off', dueDate: value }).success).toBe(false);
  },
);

test('leap days of years 0000–0099 are days (0000 and 0004 are leap years, 0100 is not)', () => {
  expect(isIsoDay('0000-02-29')).toBe(true);
  expect(isIsoDay('0004-02-29')).toBe(true);
  expect(isIsoDay('0001-02-29')).toBe(false);
});

test('the day after and before counts across the years 0000–0099 and reaches the last day, written with four digits', () => {
  expect(addDays('0099-12-31', 1)).toBe('0100-01-01');
  expect(addDays('0000-01-01', 365)).toBe('0000-12-31');
  expect(addDays('0001-01-01', -1)).toBe('0000-12-31');
  expect(addDays('9999-12-30', 1)).toBe(LAST_DAY);
  expect(() => addDays(LAST_DAY, 1)).toThrow(RangeError);
  expect(() => addDays(FIRST_DAY, -1)).toThrow(RangeError);
});

test('a range up to the last day ends at the instant that day ends in Madrid, never at an unwritable day', () => {
  expect(createdAtRange({ from: FIRST_DAY, to: LAST_DAY })).toEqual({
    // Madrid kept its local mean time (GMT-00:14:44) then.
    since: '0000-01-01T00:14:44.000Z',
    before: '9999-12-31T23:00:00.000Z',
  });
  expect(madridDayStart('0050-07-01').toISOString()).toBe('0050-07-01T00:14:44.000Z');
  expect(createdAtRange({ to: '2026-12-31' })).toEqual({ before: '2026-12-31T23:00:00.000Z' });
});

test('a milestone on the last day is an all-day event without an end (RFC 5545: it lasts the day)', () => {
  const ics = renderCalendar({
    productId: 'test',
    name: 'test',
    stamp: new Date('2026-01-01T00:00:00Z'),
    events: [
      { uid: 'a', day: LAST_DAY, summary: 'last' },
      { uid: 'b', day: '0099-12-31', summary: 'early' },
    ],
  });
  expect(ics).toContain('DTSTART;VALUE=DATE:99991231\r\nSUMMARY:last');
  expect(ics).toContain('DTSTART;VALUE=DATE:00991231\r\nDTEND;VALUE=DATE:01000101');
});

test('the contract says the same: every day of docs/openapi.json is its Day, from the first day to the last', () => {
  const doc = JSON.parse(readFileSync(join(PATHS.root, 'docs', 'openapi.json'), 'utf8')) as {
    components: { schemas: Record<string, unknown> };
  };
  const dates: string[] = [];
  const walk = (node: unknown, at: string) => {
    if (Array.isArray(node)) node.forEach((item, i) => walk(item, `${at}/${i}`));
    else if (node && typeof node === 'object') {
      if ((node as { format?: unknown }).format === 'date') dates.push(at);
      for (const [key, value] of Object.entries(node)) walk(value, `${at}/${key}`);
    }
  };
  walk(doc, '#');
  expect(dates).toEqual(['#/components/schemas/Day']);
  const day = doc.components.schemas.Day as { pattern: string; description: string };
  expect(day.description).toContain(`from ${FIRST_DAY} to ${LAST_DAY}`);
  expect(new RegExp(day.pattern).test(FIRST_DAY) && new RegExp(day.pattern).test(LAST_DAY)).toBe(true);
});
