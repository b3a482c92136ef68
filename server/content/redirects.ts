// The editors' redirects (docs/decisions/062-editor-redirects.md): a list of `from` → `to`
// entries, from content/redirects.json or Strapi's "redirect" collection, checked entry by entry
// when the content loads. What is refused is named with its reason (the caller logs it); the
// rest is kept. The table answers only a path no route of the table matches (server/render/resolve.ts).
//
//   from    a path: begins with one /, no query or #, no //, no . or .. segment; never a
//           route of the table in any of its forms or spellings (/blog, /es/Contact,
//           /en/blog/anything): a redirect never shadows, nor leads away from, a page of the
//           specification. Matched as the routes are: case aside, with or without a trailing /.
//   to      a local path (with its own query and #, if any) or an http(s) URL
//   status  301 (the default) or 302
//
// Refused: a bad from or to, a redirect to itself, a second one from the same path (the first
// wins), and every redirect whose chain never ends (a loop, or one that leads into a loop).
// Chains are collapsed: A → B, B → C answers A → C at once, 301 only when every hop is 301.
import { matchRoutes, type RouteObject } from 'react-router-dom';
import { z } from 'zod';
import { matchRoute, ROUTE_OBJECTS, routeByName } from '../../shared/routes.ts';
import type { Logger } from '../base/logger.ts';

export type RedirectStatus = 301 | 302;

/** A redirect as served: where to, and how. */
export type Redirect = { from: string; to: string; status: RedirectStatus };

export type RedirectRefusal = { entry: string; reason: string };

export type RedirectTable = {
  /** How many redirects are served. */
  readonly size: number;
  /** The entries refused when the table was built, each with why. */
  readonly refused: readonly RedirectRefusal[];
  /** The redirect for a request's path (raw, percent-encoded as asked), or null. */
  find(pathname: string): Redirect | null;
};

const MAX_LENGTH = 2048;

/** One entry as an editor writes it (the Markdown file's and Strapi's fields). */
export const redirectSchema = z.looseObject({
  from: z.string().trim().min(1, 'is required').max(MAX_LENGTH),
  to: z.string().trim().min(1, 'is required').max(MAX_LENGTH),
  status: z
    .union([z.literal(301), z.literal(302), z.literal('301'), z.literal('302')], { error: 'must be 301 or 302' })
    .nullish()
    .transform((status): RedirectStatus => (status === null || status === undefined ? 301 : status === 302 || status === '302' ? 302 : 301)),
});

// RFC 3986's path characters; anything else (a space, an accent) is percent-encoded first.
const PATH_CHARACTERS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;
// eslint-disable-next-line no-control-regex -- refusing control characters and spaces is the point
const UNSAFE_CHARACTERS = /[\x00-\x20\x7f\\]/;
const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;

/** The key a path is found by: lower case, no trailing slash (as the routes are matched). */
function keyOf(path: string): string {
  return (path.replace(/\/+$/, '') || '/').toLowerCase();
}

function pathOf(localTarget: string): string {
  return localTarget.split(/[?#]/, 1)[0] ?? '';
}

/** The route of the table a path falls in, whatever its spelling or parameter ('/en/blog/:slug'), or null. */
function routePattern(path: string): string | null {
  const found = matchRoutes(ROUTE_OBJECTS as RouteObject[], path);
  const id = found?.at(-1)?.route.id;
  return id === undefined ? null : (routeByName(id)?.fullPath ?? id);
}

/** `from` percent-encoded (an editor may write /café), or why it cannot be a redirect's source. */
export function checkFrom(from: string): { path: string } | { problem: string } {
  if (!from.startsWith('/')) return { problem: `"from" ${from} must be a path beginning with /` };
  if (/[?#]/.test(from)) return { problem: `"from" ${from} must have no query or # (the visitor's query is kept)` };
  let path: string;
  try {
    path = encodeURI(decodeURI(from));
  } catch {
    return { problem: `"from" ${from} has a malformed percent-encoding` };
  }
  if (!PATH_CHARACTERS.test(path)) return { problem: `"from" ${from} has characters a path cannot have` };
  if (path.includes('//')) return { problem: `"from" ${from} must not contain //` };
  if (/\/\.\.?(\/|$)/.test(path)) return { problem: `"from" ${from} must not contain a . or .. segment` };
  const pattern = routePattern(path);
  if (pattern !== null) return { problem: `"from" ${from} is the site's page ${pattern}: a redirect may not shadow a route of the site` };
  return { path };
}

/** `to` as it will be sent (a local path in its route's own spelling), or why it cannot be a target. */
export function checkTo(to: string): { to: string; local: boolean } | { problem: string } {
  if (UNSAFE_CHARACTERS.test(to)) return { problem: `"to" ${to} must have no spaces, backslashes or control characters` };
  if (ABSOLUTE.test(to)) {
    let url: URL;
    try {
      url = new URL(to);
    } catch {
      return { problem: `"to" ${to} is not a URL` };
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: `"to" ${to} must be a path or an http(s) URL` };
    if (url.username || url.password) return { problem: `"to" ${to} must not carry a user or a password` };
    return { to, local: false };
  }
  if (!to.startsWith('/') || to.startsWith('//')) return { problem: `"to" ${to} must be a path beginning with / or an http(s) URL` };
  // Parsed against a placeholder origin: a local target must stay on it.
  if (new URL(to, 'http://site.invalid').origin !== 'http://site.invalid') return { problem: `"to" ${to} leaves the site` };
  // A route in another spelling (/contact): its own (/Contact), so that it is one hop, not two.
  const path = pathOf(to);
  const match = matchRoute(path);
  return { to: match?.kind === 'redirect' ? match.location + to.slice(path.length) : to, local: true };
}

function nameOf(pair: string): string {
  const name = (pair.split('=', 1)[0] ?? '').replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * `to` with a request's query kept: the target's own parameters first, then the request's,
 * but not those the target names already (the editor's value wins); the target's # stays last.
 */
export function withQuery(to: string, search: string): string {
  const asked = search.replace(/^\?/, '').split('&').filter(Boolean);
  if (asked.length === 0) return to;
  const hashAt = to.indexOf('#');
  const [base, hash] = hashAt === -1 ? [to, ''] : [to.slice(0, hashAt), to.slice(hashAt)];
  const queryAt = base.indexOf('?');
  const own = queryAt === -1 ? '' : base.slice(queryAt + 1);
  const named = new Set(own.split('&').filter(Boolean).map(nameOf));
  const added = asked.filter((pair) => !named.has(nameOf(pair)));
  if (added.length === 0) return to;
  const path = queryAt === -1 ? base : base.slice(0, queryAt);
  return `${path}?${[own, ...added].filter(Boolean).join('&')}${hash}`;
}

type Checked = { entry: string; from: string; key: string; to: string; local: boolean; status: RedirectStatus };

/** The entries that pass alone: their own fields, a target that is not themselves, the first of a path. */
function checkEach(items: readonly unknown[], describe: (index: number) => string, refused: RedirectRefusal[]): Checked[] {
  const checked = new Map<string, Checked>();
  items.forEach((item, index) => {
    const entry = describe(index);
    const parsed = redirectSchema.safeParse(item);
    if (!parsed.success) {
      const reason = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'entry'} ${issue.message}`).join('; ');
      return refused.push({ entry, reason });
    }
    const { from, to, status } = parsed.data;
    const source = checkFrom(from);
    if ('problem' in source) return refused.push({ entry: `${entry} (${from})`, reason: source.problem });
    const target = checkTo(to);
    if ('problem' in target) return refused.push({ entry: `${entry} (${from})`, reason: target.problem });
    const key = keyOf(source.path);
    if (target.local && keyOf(pathOf(target.to)) === key) return refused.push({ entry: `${entry} (${from})`, reason: `it redirects to itself (${to})` });
    const first = checked.get(key);
    if (first) return refused.push({ entry: `${entry} (${from})`, reason: `${first.entry} redirects ${first.from} already (the first one is kept)` });
    checked.set(key, { entry, from, key, to: target.to, local: target.local, status });
  });
  return [...checked.values()];
}

/**
 * What the next hop answers to a target: its own target, with the target's query kept (and its #,
 * as a browser keeps it when a Location has none).
 */
function followOn(to: string, next: string): string {
  const hashAt = to.indexOf('#');
  const base = hashAt === -1 ? to : to.slice(0, hashAt);
  const queryAt = base.indexOf('?');
  const followed = withQuery(next, queryAt === -1 ? '' : base.slice(queryAt));
  return hashAt !== -1 && !followed.includes('#') ? followed + to.slice(hashAt) : followed;
}

/** Builds the table from the entries as written; `describe` names an entry in a refusal (its file and place, its CMS id). */
export function buildRedirectTable(items: readonly unknown[], describe: (index: number) => string): RedirectTable {
  const refused: RedirectRefusal[] = [];
  const checked = checkEach(items, describe, refused);
  const byKey = new Map(checked.map((entry) => [entry.key, entry]));
  const nextHop = (hop: Checked) => (hop.local ? byKey.get(keyOf(pathOf(hop.to))) : undefined);
  const table = new Map<string, Redirect>();
  for (const entry of checked) {
    const hops = [entry];
    let to = entry.to;
    let next = nextHop(entry);
    while (next && !hops.includes(next)) {
      hops.push(next);
      to = followOn(to, next.to);
      next = nextHop(next);
    }
    if (next) {
      const chain = [...hops, next].map((hop) => hop.from).join(' → ');
      const reason = next === entry ? `it is part of a loop: ${chain}` : `it leads into a loop: ${chain}`;
      refused.push({ entry: `${entry.entry} (${entry.from})`, reason });
      continue;
    }
    const status: RedirectStatus = hops.every((hop) => hop.status === 301) ? 301 : 302;
    table.set(entry.key, { from: entry.from, to, status });
  }
  return {
    size: table.size,
    refused,
    find: (pathname) => table.get(keyOf(pathname)) ?? null,
  };
}

/** An empty table (no redirects, nothing refused). */
export const NO_REDIRECTS: RedirectTable = buildRedirectTable([], () => '');

/** One warning per refused entry, naming it and why. */
export function logRefusedRedirects(table: RedirectTable, logger: Logger): void {
  for (const { entry, reason } of table.refused) logger.warn({ redirect: entry }, `Redirect ${entry} refused: ${reason}`);
}
