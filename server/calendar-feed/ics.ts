// iCalendar (RFC 5545) as the calendar feed writes it: a VCALENDAR of all-day VEVENTs. Text values
// escaped (backslash, semicolon, comma, line breaks), every line ended by CRLF and folded at 75
// octets without splitting a character, times of stamp in UTC.
import { addDays, LAST_DAY } from '../calendar/days.ts';

export type CalendarEvent = {
  /** Unique and stable across reads (a calendar app updates the event it already has). */
  uid: string;
  /** The day it falls on, YYYY-MM-DD. */
  day: string;
  summary: string;
  description?: string;
  url?: string;
};

export type Calendar = {
  /** PRODID: who made it. */
  productId: string;
  /** The calendar's name in the app (NAME, X-WR-CALNAME). */
  name: string;
  events: readonly CalendarEvent[];
  /** DTSTAMP of every event: when the feed was read. */
  stamp: Date;
};

/** A TEXT value (RFC 5545 §3.3.11). */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

const encoder = new TextEncoder();

/** A content line folded at 75 octets (§3.1): the next part starts with one space, never inside a character. */
export function foldLine(line: string): string {
  if (encoder.encode(line).length <= 75) return line;
  const parts: string[] = [];
  let part = '';
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    // The first line holds 75 octets, the others 74 after their leading space.
    if (octets + size > (parts.length === 0 ? 75 : 74)) {
      parts.push(part);
      part = '';
      octets = 0;
    }
    part += char;
    octets += size;
  }
  parts.push(part);
  return parts.join('\r\n ');
}

function utcStamp(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
}

function dateValue(day: string): string {
  return day.replace(/-/g, '');
}

export function renderCalendar(calendar: Calendar): string {
  const stamp = utcStamp(calendar.stamp);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${escapeText(calendar.productId)}`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `NAME:${escapeText(calendar.name)}`,
    `X-WR-CALNAME:${escapeText(calendar.name)}`,
    'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
    'X-PUBLISHED-TTL:PT1H',
  ];
  for (const event of calendar.events) {
    lines.push(
      'BEGIN:VEVENT',
      `UID:${escapeText(event.uid)}`,
      `DTSTAMP:${stamp}`,
      `DTSTART;VALUE=DATE:${dateValue(event.day)}`,
      // A DATE start without an end lasts the day (RFC 5545 §3.6.1): the last day has no day after it to end on.
      ...(event.day === LAST_DAY ? [] : [`DTEND;VALUE=DATE:${dateValue(addDays(event.day, 1))}`]),
      `SUMMARY:${escapeText(event.summary)}`,
      ...(event.description ? [`DESCRIPTION:${escapeText(event.description)}`] : []),
      ...(event.url ? [`URL:${event.url}`] : []),
      'TRANSP:TRANSPARENT',
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
