// The private calendar feed (docs/decisions/043): each user may have one secret address
// (iCalendar, RFC 5545) that lists the milestones and deadlines of their projects, for their
// calendar app; renewed (the old address stops working) or stopped from their profile.

/** The feed's path: `/calendar/<token>.ics`. */
export const CALENDAR_PATH = '/calendar/:file';

/** The profile's forms of the feed. */
export const CALENDAR_INTENTS = ['calendarCreate', 'calendarRenew', 'calendarStop'] as const;
export type CalendarIntent = (typeof CALENDAR_INTENTS)[number];

export function isCalendarIntent(value: unknown): value is CalendarIntent {
  return typeof value === 'string' && (CALENDAR_INTENTS as readonly string[]).includes(value);
}

/** What the profile shows: the address, and since when it works. */
export type CalendarFeedView = { url: string; createdAt: string };

/** A feed lists at most this many events: the soonest from CALENDAR_PAST_DAYS ago on. */
export const CALENDAR_EVENTS_MAX = 500;
/** How far back a feed reaches (days before today). */
export const CALENDAR_PAST_DAYS = 90;

/** What a calendar feed lists of the projects a user sees (the projects service's `calendar`). */
export type CalendarEntries = {
  milestones: { id: number; title: string; day: string; done: boolean; project: { id: number; title: string } }[];
  deadlines: { day: string; project: { id: number; title: string } }[];
};
