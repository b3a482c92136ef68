// Named guards of the route table (docs/specification.md §5). Pure functions of the
// user and the route: the server runs them before rendering, the client before a navigation.
import { routePath, type Route, type RouteParams } from './routes.ts';
import { confinedArea, hasRole, type SessionUser } from './user.ts';

export type GuardContext = {
  route: Route;
  params: RouteParams;
  /** Path + query the visitor asked for, remembered when sent to login. */
  url: string;
  user: SessionUser | null;
};

export type GuardOutcome =
  { kind: 'redirect'; to: string; rememberPath?: string } | { kind: 'error'; status: number; messageKey: string } | null;

export type Guard = (ctx: GuardContext) => GuardOutcome;

function sameForm(ctx: GuardContext, base: string): string {
  return routePath(base, { locale: ctx.route.locale, prefixed: ctx.route.prefixed });
}

export const GUARDS: Readonly<Record<string, Guard>> = {
  /** The default for private pages: signed out → login, remembering where they wanted to go. */
  auth: (ctx) => (ctx.user ? null : { kind: 'redirect', to: sameForm(ctx, 'login'), rememberPath: ctx.url }),

  /** Login page: a signed-in user goes home (where the role guard takes over). */
  guest: (ctx) => (ctx.user ? { kind: 'redirect', to: sameForm(ctx, 'index') } : null),

  /** ADMIN passes; CLI, ORG, CONS are confined to their area; other roles go home. */
  role: (ctx) => {
    const { user, route } = ctx;
    if (!user || hasRole(user, 'ADMIN')) return null;
    const area = confinedArea(user.role);
    if (!area) return route.base === 'index' ? null : { kind: 'redirect', to: sameForm(ctx, 'index') };
    return route.area === area ? null : { kind: 'redirect', to: sameForm(ctx, area) };
  },

  isAdmin: (ctx) => (hasRole(ctx.user, 'ADMIN') ? null : { kind: 'error', status: 403, messageKey: 'errors.forbidden' }),
};

export class UnknownMiddlewareError extends Error {
  readonly status = 500;
  readonly middleware: string;
  constructor(middleware: string) {
    // The specification's text: 'Unknown middleware {name}' (500).
    super(`Unknown middleware ${middleware}`);
    this.name = 'UnknownMiddlewareError';
    this.middleware = middleware;
  }
}

/** Runs the route's guards in order; the first that objects decides. */
export function runGuards(ctx: GuardContext, guards: Readonly<Record<string, Guard>> = GUARDS): GuardOutcome {
  for (const name of ctx.route.allGuards) {
    const guard = Object.hasOwn(guards, name) ? guards[name] : undefined;
    if (!guard) throw new UnknownMiddlewareError(name);
    const outcome = guard(ctx);
    if (outcome) return outcome;
  }
  return null;
}
