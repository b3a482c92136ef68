// The part of a report a request asks for: the query checked at the edge, the page sliced, the
// range turned into stored timestamps, and the words the document uses for it.
import { describe, expect, test } from 'vitest';
import { formatCoverage, formatRange } from '../../server/pdf/i18n.ts';
import { createdAtRange, isIsoDay, madridDayStart } from '../../server/calendar/days.ts';
import {
  MAX_REPORT_PAGE,
  MESSAGES_PER_REPORT,
  parseReportQuery,
  reportPageCount,
  reportPart,
  reportSlice,
  USERS_FETCH_SIZE,
  USERS_PER_REPORT,
} from '../../server/pdf/report-query.ts';

describe('the query', () => {
  test('defaults to page 1 of the whole list', () => {
    expect(parseReportQuery({}, { dates: true })).toEqual({ ok: true, query: { page: 1 } });
  });

  test('takes a page and a date range', () => {
    expect(parseReportQuery({ page: '3', from: '2026-01-01', to: '2026-01-31' }, { dates: true })).toEqual({
      ok: true,
      query: { page: 3, from: '2026-01-01', to: '2026-01-31' },
    });
    expect(parseReportQuery({ page: String(MAX_REPORT_PAGE), to: '2026-02-28' }, { dates: true })).toEqual({
      ok: true,
      query: { page: MAX_REPORT_PAGE, to: '2026-02-28' },
    });
  });

  test.each([
    [{ page: '0' }, 'page', 'page must be a whole number from 1 to 100000, not "0"'],
    [{ page: '-1' }, 'page', 'page must be a whole number from 1 to 100000, not "-1"'],
    [{ page: '1.5' }, 'page', 'page must be a whole number from 1 to 100000, not "1.5"'],
    [{ page: '1e3' }, 'page', 'page must be a whole number from 1 to 100000, not "1e3"'],
    [{ page: ' 2' }, 'page', 'page must be a whole number from 1 to 100000, not " 2"'],
    [{ page: '' }, 'page', 'page must be a whole number from 1 to 100000, not ""'],
    [{ page: 'abc' }, 'page', 'page must be a whole number from 1 to 100000, not "abc"'],
    [{ page: '100001' }, 'page', 'page must be a whole number from 1 to 100000, not "100001"'],
    [{ page: '99999999999999999999' }, 'page', 'page must be a whole number from 1 to 100000, not "99999999999999999999"'],
    [{ page: ['1', '2'] }, 'page', 'page must be given once, not repeated'],
    [{ page: { $gt: '1' } }, 'page', 'page must be given once, not repeated'],
    [{ from: '2026-1-1' }, 'from', 'from must be a day written YYYY-MM-DD, not "2026-1-1"'],
    [{ from: '2026-02-30' }, 'from', 'from must be a day written YYYY-MM-DD, not "2026-02-30"'],
    [{ to: '2026-13-01' }, 'to', 'to must be a day written YYYY-MM-DD, not "2026-13-01"'],
    [{ to: '01/02/2026' }, 'to', 'to must be a day written YYYY-MM-DD, not "01/02/2026"'],
    [{ to: ['2026-01-01', '2026-01-02'] }, 'to', 'to must be given once, not repeated'],
    [{ from: '2026-02-01', to: '2026-01-31' }, 'to', 'to (2026-01-31) must not be before from (2026-02-01)'],
  ])('refuses %j, naming the parameter %s', (query, param, message) => {
    expect(parseReportQuery(query, { dates: true })).toEqual({ ok: false, problem: { param, message } });
  });

  test('refuses a date range for a report that has none (the users report) instead of ignoring it', () => {
    expect(parseReportQuery({ from: '2026-01-01' }, { dates: false })).toEqual({
      ok: false,
      problem: { param: 'from', message: 'from is not a parameter of this report: it has no date range' },
    });
    expect(parseReportQuery({ page: '2' }, { dates: false })).toEqual({ ok: true, query: { page: 2 } });
  });

  test('knows real calendar days, leap years included', () => {
    expect(isIsoDay('2028-02-29')).toBe(true);
    expect(isIsoDay('2026-02-29')).toBe(false);
    expect(isIsoDay('2026-04-31')).toBe(false);
    expect(isIsoDay('0000-00-00')).toBe(false);
  });
});

describe('the page slicing', () => {
  test('reports are pages of 50 messages or 500 users, the users read in the API’s largest pages', () => {
    expect(MESSAGES_PER_REPORT).toBe(50);
    expect(USERS_PER_REPORT).toBe(500);
    expect(USERS_PER_REPORT % USERS_FETCH_SIZE).toBe(0);
  });

  test('page N holds items (N-1)·size+1 to N·size, the last page what is left', () => {
    expect(reportSlice(1, 50)).toEqual({ page: 1, perPage: 50, offset: 0, limit: 50 });
    expect(reportSlice(2, 50)).toEqual({ page: 2, perPage: 50, offset: 50, limit: 50 });
    expect(reportPart(reportSlice(2, 50), 2345)).toEqual({ first: 51, last: 100, total: 2345 });
    expect(reportPart(reportSlice(47, 50), 2345)).toEqual({ first: 2301, last: 2345, total: 2345 });
    expect(reportPageCount(2345, 50)).toBe(47);
    expect(reportPageCount(2350, 50)).toBe(47);
  });

  test('a page past the end covers nothing (the route answers 404); an empty list still has its page 1', () => {
    expect(reportPart(reportSlice(48, 50), 2345)).toBeNull();
    expect(reportPart(reportSlice(2, 50), 50)).toBeNull();
    expect(reportPart(reportSlice(1, 50), 0, { from: '2026-01-01' })).toEqual({ first: 0, last: 0, total: 0, from: '2026-01-01' });
    expect(reportPart(reportSlice(2, 50), 0)).toBeNull();
  });
});

describe('the date range', () => {
  test('runs from midnight in Madrid on `from` to midnight after `to`, in winter and summer time', () => {
    // CET (UTC+1) in January, CEST (UTC+2) in July.
    expect(madridDayStart('2026-01-15').toISOString()).toBe('2026-01-14T23:00:00.000Z');
    expect(madridDayStart('2026-07-15').toISOString()).toBe('2026-07-14T22:00:00.000Z');
    // The days the clocks change (29 March and 25 October 2026) start in the old time.
    expect(madridDayStart('2026-03-29').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(madridDayStart('2026-10-25').toISOString()).toBe('2026-10-24T22:00:00.000Z');
    expect(createdAtRange({ from: '2026-03-01', to: '2026-03-31' })).toEqual({
      since: '2026-02-28T23:00:00.000Z',
      before: '2026-03-31T22:00:00.000Z',
    });
    expect(createdAtRange({ to: '2026-12-31' })).toEqual({ before: '2026-12-31T23:00:00.000Z' });
    expect(createdAtRange({})).toEqual({});
  });
});

describe('what the document says it covers', () => {
  test('in Spanish: "Mensajes 51–100 de 2.345 del … al …"', () => {
    const range = { from: '2026-01-01', to: '2026-01-31' };
    expect(formatCoverage('messages', { first: 51, last: 100, total: 2345, ...range }, 'es')).toBe(
      'Mensajes 51–100 de 2.345 del 1 de enero de 2026 al 31 de enero de 2026',
    );
    expect(formatCoverage('users', { first: 501, last: 1000, total: 2345 }, 'es')).toBe('Usuarios 501–1.000 de 2.345');
    expect(formatCoverage('messages', { first: 7, last: 7, total: 7 }, 'es')).toBe('Mensaje 7 de 7');
    expect(formatCoverage('messages', { first: 0, last: 0, total: 0, from: '2026-01-01' }, 'es')).toBe(
      '0 mensajes desde el 1 de enero de 2026',
    );
    expect(formatRange({ to: '2026-01-31' }, 'es')).toBe('hasta el 31 de enero de 2026');
  });

  test('in English: "Messages 51–100 of 2,345 from … to …"', () => {
    const range = { from: '2026-01-01', to: '2026-01-31' };
    expect(formatCoverage('messages', { first: 51, last: 100, total: 2345, ...range }, 'en')).toBe(
      'Messages 51–100 of 2,345 from January 1, 2026 to January 31, 2026',
    );
    expect(formatCoverage('users', { first: 501, last: 1000, total: 2345 }, 'en')).toBe('Users 501–1,000 of 2,345');
    expect(formatCoverage('users', { first: 1, last: 1, total: 1 }, 'en')).toBe('User 1 of 1');
    expect(formatCoverage('users', { first: 0, last: 0, total: 0 }, 'en')).toBe('0 users');
    expect(formatRange({ from: '2026-01-01' }, 'en')).toBe('from January 1, 2026 on');
    expect(formatRange({ to: '2026-01-31' }, 'en')).toBe('up to January 31, 2026');
  });
});
