// Every list the site answers is a page (no answer grows with the data; docs/decisions/030): its size has a
// default and a maximum, written here once for the API's checks, the services' clamps, the pages
// and docs/private-area.md. Two kinds of page: numbered pages (`page`, `pageSize`) for lists read in an
// order that does not move, and cursor pages (`before`, `pageSize`) for lists that grow at the
// top — a project's history and conversation — where page 2 would shift with every new entry.

/** The page sizes of each list: `default` when none is asked for, never more than `max`. */
export const PAGE_SIZES = {
  /** A role's projects (GET /api/projects, the dashboards and the admin's pipeline). */
  projects: { default: 20, max: 100 },
  /** A project's history, newest first (GET /api/projects/{id}/events, the project page). */
  history: { default: 50, max: 100 },
  /** A project's conversation, newest first (GET /api/projects/{id}/messages, the project page). */
  messages: { default: 50, max: 100 },
  /** A project's documents, newest first (GET /api/projects/{id}/documents, the project page). */
  documents: { default: 20, max: 100 },
  /** The experts an admin may assign (GET /api/experts, the project page's candidates). */
  experts: { default: 50, max: 100 },
  /** The admin's users (GET /api/admin/users, the console). */
  users: { default: 20, max: 100 },
  /** The contact inbox (GET /api/admin/messages, the console). */
  inbox: { default: 20, max: 100 },
  /** A contact message's replies, the newest (GET /api/admin/messages/{id}, the inbox's message; no parameter). */
  replies: { default: 50, max: 50 },
  /** The audit log (GET /api/admin/audit, the console). */
  audit: { default: 20, max: 100 },
  /** Pending account deletions (GET /api/admin/deletion-requests, the console). */
  deletionRequests: { default: 20, max: 100 },
  /** A company's people (GET /api/company/members, the profile's team; the console's companies). */
  members: { default: 20, max: 100 },
  /** The companies an admin may move a user to (GET /api/admin/companies). */
  companies: { default: 20, max: 100 },
  /** The signed-in user's notifications, newest first (GET /api/notifications, /notifications). */
  notifications: { default: 20, max: 100 },
  /** The user's own sessions on their profile, the most recently seen (no parameter). */
  sessions: { default: 20, max: 20 },
} as const satisfies Record<string, { default: number; max: number }>;
export type PagedList = keyof typeof PAGE_SIZES;

/**
 * How many matches a search counts at most (the admin's users, GET /api/admin/users?q=): a search
 * for a part of a word has no index to count with, and counting every match of a common one
 * ("mar") reads the whole table on every page. Past it, the page says `totalCapped`.
 */
export const SEARCH_COUNT_MAX = 100;

/** The longest search text a list takes (`q`: the projects, the admin's users, the experts to assign); longer is cut or refused. */
export const SEARCH_MAX_LENGTH = 100;

/**
 * The LIKE pattern of a search for `text` anywhere in a column, lower-cased, its own `%`, `_` and
 * `\` escaped (used with `ESCAPE '\'`): every list's search (projects, users, companies).
 */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The highest page number a numbered list takes. */
export const PAGE_NUMBER_MAX = 100_000;
/** The highest id a row has, and so a cursor (`before`) may name: ids are 32-bit on both engines. */
export const ID_MAX = 2_147_483_647;

/** The size of a page of `list`: its default when none (or nonsense) is asked for, at most its maximum. */
export function pageSizeOf(list: PagedList, asked?: number | null): number {
  const { default: fallback, max } = PAGE_SIZES[list];
  if (asked === undefined || asked === null || !Number.isFinite(asked)) return fallback;
  return Math.min(max, Math.max(1, Math.floor(asked)));
}

/** A numbered page of a list. */
export type NumberedPage<T> = { items: T[]; total: number; page: number; pageSize: number };

/**
 * A page of a list that grows at its top: the newest `pageSize` items older than `before`
 * (all of them when null), newest first; `nextBefore` asks for the page after it (null: this
 * page reaches the oldest item).
 */
export type CursorPage<T> = { items: T[]; total: number; pageSize: number; before: number | null; nextBefore: number | null };

/**
 * The page from `pageSize + 1` rows read newest first: the extra row only says that there are
 * older ones (so no second query asks).
 */
export function cursorPageOf<T extends { id: number }>(
  rows: readonly T[],
  page: { pageSize: number; before: number | null; total: number },
): CursorPage<T> {
  const items = rows.slice(0, page.pageSize);
  const nextBefore = rows.length > page.pageSize && items.length > 0 ? items[items.length - 1]!.id : null;
  return { items, total: page.total, pageSize: page.pageSize, before: page.before, nextBefore };
}

/** An id from a URL (a path's segment, a query's or a form's value): a positive integer up to ID_MAX, else null. */
export function idOf(value: string | null | undefined): number | null {
  if (!value || !/^[1-9][0-9]{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= ID_MAX ? id : null;
}

/** A cursor from a URL's query: a positive id, or null for anything else (the newest page). */
export function cursorOf(value: string | null | undefined): number | null {
  return idOf(value);
}
