// Days as the company counts them: YYYY-MM-DD in its time zone, Madrid's (the PDF reports' date
// range, the audit log's filter; both days of a range included). Checked where a query names one,
// and turned into the instants that stored timestamps (ISO, UTC) are compared with.

import { COMPANY_TIME_ZONE } from '../../shared/time-zone.ts';

/** A day, as in a query: YYYY-MM-DD. */
export type IsoDay = string;

/**
 * The days a query or a form may name: every real day four digits of year can write, the
 * same rule on every route (docs/openapi.json's `Day`). Years 0000–0099 are days like any
 * other, and the last one has no day after it that YYYY-MM-DD can write.
 */
export const FIRST_DAY: IsoDay = '0000-01-01';
export const LAST_DAY: IsoDay = '9999-12-31';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Midnight UTC of year-month-day, `plusDays` later: Date.UTC reads years 0–99 as 1900–1999,
 * setUTCFullYear takes them as they are.
 */
function utcMidnight(year: number, month: number, day: number, plusDays = 0): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day + plusDays);
  return date;
}

function partsOf(day: IsoDay): [number, number, number] {
  return day.split('-').map(Number) as [number, number, number];
}

/** A moment's day in UTC, YYYY-MM-DD (the year padded to four digits: toISOString writes +010000 and -000001). */
function utcDay(date: Date): IsoDay {
  const year = date.getUTCFullYear();
  if (year < 0 || year > 9999)
    throw new RangeError(`${date.toISOString()} is outside the days YYYY-MM-DD can write (${FIRST_DAY} to ${LAST_DAY})`);
  const pad = (value: number, width: number) => String(value).padStart(width, '0');
  return `${pad(year, 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}`;
}

/** True for a real calendar day written YYYY-MM-DD, from 0000-01-01 to 9999-12-31 (2026-02-30 is not one). */
export function isIsoDay(value: string): boolean {
  const match = DAY.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = utcMidnight(year, month, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

// Madrid's offset from UTC at an instant, from Intl (no time-zone data of our own to go stale).
const OFFSET_FORMAT = new Intl.DateTimeFormat('en-US', { timeZone: COMPANY_TIME_ZONE, timeZoneName: 'longOffset' });

function madridOffsetMs(instant: number): number {
  const name = OFFSET_FORMAT.formatToParts(instant).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  // Before 1901 Madrid kept its local mean time, GMT-00:14:44: seconds too.
  const match = /GMT([+-])(\d{2}):(\d{2})(?::(\d{2}))?/.exec(name);
  if (!match) return 0;
  return (match[1] === '-' ? -1 : 1) * ((Number(match[2]) * 60 + Number(match[3])) * 60 + Number(match[4] ?? 0)) * 1000;
}

/**
 * The instant a day starts in Madrid (midnight there: clocks change at 02:00/03:00, never at
 * midnight); `plusDays` later, so that the start of the day after 9999-12-31 is an instant too.
 */
export function madridDayStart(day: IsoDay, plusDays = 0): Date {
  const utc = utcMidnight(...partsOf(day), plusDays).getTime();
  return new Date(utc - madridOffsetMs(utc - madridOffsetMs(utc)));
}

/** The day `days` after `day` (before it when negative), YYYY-MM-DD; a RangeError past 0000–9999. */
export function addDays(day: IsoDay, days: number): IsoDay {
  return utcDay(utcMidnight(...partsOf(day), days));
}

/**
 * Per time zone, one formatter made once and the last minute asked: making an Intl.DateTimeFormat
 * costs ~80–200 µs (ICU) and formatting ~5–10 µs, while the dashboards ask for today's day on
 * every load ("due soon" is part of what their kept lists are keyed by). Offsets are whole
 * minutes, so a day and an hour never change within a minute.
 */
const LOCAL_TIMES = new Map<string, { format: Intl.DateTimeFormat; minute: number; value: { day: IsoDay; hour: number } }>();

/** The day (YYYY-MM-DD) and hour of a moment in a time zone. */
export function localTime(at: number, timeZone: string): { day: IsoDay; hour: number } {
  const minute = Math.floor(at / 60_000);
  let zone = LOCAL_TIMES.get(timeZone);
  if (zone?.minute === minute) return zone.value;
  if (!zone) {
    const format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    });
    zone = { format, minute: NaN, value: { day: '', hour: 0 } };
    LOCAL_TIMES.set(timeZone, zone);
  }
  zone.minute = minute;
  zone.value = formatLocal(zone.format, at);
  return zone.value;
}

function formatLocal(format: Intl.DateTimeFormat, at: number): { day: IsoDay; hour: number } {
  let year = '';
  let month = '';
  let day = '';
  let hour = '';
  for (const part of format.formatToParts(at)) {
    if (part.type === 'year') year = part.value;
    else if (part.type === 'month') month = part.value;
    else if (part.type === 'day') day = part.value;
    else if (part.type === 'hour') hour = part.value;
  }
  return { day: `${year}-${month}-${day}`, hour: Number(hour) };
}

/** The range as stored timestamps compare (ISO, UTC): from the start of `from` up to, not including, the day after `to`. */
export function createdAtRange(range: { from?: IsoDay; to?: IsoDay }): { since?: string; before?: string } {
  return {
    ...(range.from ? { since: madridDayStart(range.from).toISOString() } : {}),
    ...(range.to ? { before: madridDayStart(range.to, 1).toISOString() } : {}),
  };
}
