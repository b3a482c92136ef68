// An API path that exists asked with a method it does not have: 405 with an `Allow` header naming
// the methods it has (RFC 9110 §15.5.6), as the JSON Error; OPTIONS answers 204 with the same
// header. The paths and methods are read once from the router's own routes (nothing restated):
// what is not one of them stays the 404 it was.
import type { RequestHandler, Router } from 'express';
import { ApiError } from '../http/errors.ts';

type Layer = { route?: { path: string | string[]; methods: Record<string, boolean> }; handle?: { stack?: Layer[] } };

/** A route's path as a matcher: `:param` is one segment. */
function matcherOf(path: string): RegExp {
  const escaped = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}/?$`);
}

/** Each route path of `router` and of the routers it mounts without a path, with its methods. */
function routesOf(router: { stack?: Layer[] }, into = new Map<string, Set<string>>()): Map<string, Set<string>> {
  for (const layer of router.stack ?? []) {
    if (!layer.route) {
      if (layer.handle?.stack) routesOf(layer.handle, into);
      continue;
    }
    const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
    for (const path of paths) {
      const methods = into.get(path) ?? new Set<string>();
      for (const [method, on] of Object.entries(layer.route.methods)) if (on && method !== '_all') methods.add(method.toUpperCase());
      into.set(path, methods);
    }
  }
  return into;
}

/**
 * The methods of `router`'s paths, as two steps: `options` first of all (OPTIONS of a path is 204
 * with its Allow, whichever resource router holds its routes), `notAllowed` after every route.
 */
export function allowedMethods(router: Router): { options: RequestHandler; notAllowed: RequestHandler } {
  let table: { match: RegExp; methods: Set<string> }[] | null = null;
  const allowOf = (path: string): string | null => {
    // Read at the first request: every resource's routes are mounted by then.
    table ??= [...routesOf(router as unknown as { stack: Layer[] })].map(([route, methods]) => {
      if (methods.has('GET')) methods.add('HEAD');
      return { match: matcherOf(route), methods };
    });
    const methods = new Set(table.filter((entry) => entry.match.test(path)).flatMap((entry) => [...entry.methods]));
    return methods.size ? [...methods].sort().join(', ') : null;
  };
  return {
    options(req, res, next) {
      const allow = req.method === 'OPTIONS' ? allowOf(req.path) : null;
      if (!allow) return next();
      res.set('Allow', allow).status(204).end();
    },
    notAllowed(req, res, next) {
      const allow = allowOf(req.path);
      if (!allow) return next();
      res.set('Allow', allow);
      next(new ApiError(405, 'method_not_allowed', `${req.method} is not a method of /api${req.path}: it takes ${allow}`));
    },
  };
}
