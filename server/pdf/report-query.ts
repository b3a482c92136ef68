// Which part of a report a request asks for: `?page=N` (both reports) and, for the contact
// messages, a date range `?from=YYYY-MM-DD&to=YYYY-MM-DD` (days in Madrid, both included).
// A report is one page of at most MESSAGES_PER_REPORT messages or USERS_PER_REPORT users: laying
// out a whole inbox at once exhausted the heap (docs/private-area.md, "PDF documents").
import { isIsoDay, type IsoDay } from '../calendar/days.ts';
import { givenOnce } from '../http/query-once.ts';

/**
 * Messages in one report. Measured on the worst cases (50 messages of 5,000 characters in every
 * shape: prose, one-letter words, Chinese, 60 short lines and words, unbroken tokens), each
 * message at most MAX_MESSAGE_LINES lines and MAX_MESSAGE_PIECES words: 30–145 pages, at most
 * about 70 MB of live heap in the layout thread (of its 128 MB) and 1–6.5 s of layout on a busy
 * 2-core machine, none of it on the event loop.
 */
export const MESSAGES_PER_REPORT = 50;
/**
 * Users in one report: cells are capped at 120 characters, so 500 users are at most about 125
 * landscape pages, about 60 MB of live heap in the layout thread and 1–2.5 s of layout (measured
 * with every cell full). A multiple of USERS_FETCH_SIZE, the page size users are read in.
 */
export const USERS_PER_REPORT = 500;
/** The largest page the users API hands out (docs/openapi.json, /admin/users pageSize). */
export const USERS_FETCH_SIZE = 100;
/** The API's own limit for `page` (docs/openapi.json); far beyond any real report. */
export const MAX_REPORT_PAGE = 100_000;

export type ReportQuery = { page: number; from?: IsoDay; to?: IsoDay };

export type QueryProblem = { param: string; message: string };

export type QueryResult = { ok: true; query: ReportQuery } | { ok: false; problem: QueryProblem };

const WHOLE_NUMBER = /^[0-9]{1,6}$/;

/** One query value as a string; an array (`?page=1&page=2`) or object (`?page[x]=1`) is a problem. */
function single(query: Record<string, unknown>, param: string): { value: string | undefined } | QueryProblem {
  const value = query[param];
  if (value === undefined) return { value: undefined };
  if (typeof value !== 'string') return { param, message: givenOnce(param) };
  return { value };
}

function isProblem(value: unknown): value is QueryProblem {
  return typeof value === 'object' && value !== null && 'param' in value;
}

/**
 * The part of a report a request asks for, or the first problem with its query, naming the
 * parameter. `dates: false` (the users report) refuses `from` and `to` rather than ignoring
 * them, so that nobody takes an unfiltered list for a filtered one.
 */
export function parseReportQuery(query: Record<string, unknown>, options: { dates: boolean }): QueryResult {
  const page = single(query, 'page');
  if (isProblem(page)) return { ok: false, problem: page };
  let pageNumber = 1;
  if (page.value !== undefined) {
    pageNumber = WHOLE_NUMBER.test(page.value) ? Number(page.value) : Number.NaN;
    if (!(pageNumber >= 1 && pageNumber <= MAX_REPORT_PAGE)) {
      return {
        ok: false,
        problem: { param: 'page', message: `page must be a whole number from 1 to ${MAX_REPORT_PAGE}, not ${JSON.stringify(page.value)}` },
      };
    }
  }
  const result: ReportQuery = { page: pageNumber };
  for (const param of ['from', 'to'] as const) {
    const day = single(query, param);
    if (isProblem(day)) return { ok: false, problem: day };
    if (day.value === undefined) continue;
    if (!options.dates)
      return { ok: false, problem: { param, message: `${param} is not a parameter of this report: it has no date range` } };
    if (!isIsoDay(day.value)) {
      return { ok: false, problem: { param, message: `${param} must be a day written YYYY-MM-DD, not ${JSON.stringify(day.value)}` } };
    }
    result[param] = day.value;
  }
  if (result.from && result.to && result.from > result.to) {
    return { ok: false, problem: { param: 'to', message: `to (${result.to}) must not be before from (${result.from})` } };
  }
  return { ok: true, query: result };
}

/** Which items a report page holds: offset and limit for the query, first/last (1-based) for the text. */
export type ReportSlice = { page: number; perPage: number; offset: number; limit: number };

/** The slice of report page `page` (1-based) with `perPage` items per page. */
export function reportSlice(page: number, perPage: number): ReportSlice {
  return { page, perPage, offset: (page - 1) * perPage, limit: perPage };
}

/** How many report pages `total` items make (at least 1: an empty report still has its first page). */
export function reportPageCount(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / perPage));
}

/** What a report covers, as its first page says: items first–last of total, and the date range asked for. */
export type ReportPart = { first: number; last: number; total: number; from?: IsoDay; to?: IsoDay; unread?: number };

/** The part a page covers once the total is known; null when the page is past the end (an empty report's page 1 is not). */
export function reportPart(slice: ReportSlice, total: number, range: { from?: IsoDay; to?: IsoDay } = {}): ReportPart | null {
  if (slice.page > reportPageCount(total, slice.perPage)) return null;
  const first = total === 0 ? 0 : slice.offset + 1;
  const last = Math.min(total, slice.offset + slice.limit);
  return { first, last, total, ...(range.from ? { from: range.from } : {}), ...(range.to ? { to: range.to } : {}) };
}
