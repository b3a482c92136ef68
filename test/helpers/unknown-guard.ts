// A mistake in the route table made on purpose: a route that names a guard GUARDS lacks
// (docs/specification.md §5.7: 'Unknown middleware {name}', 500). The route object is the one the server
// and the client of this process both match, so both meet the same mistake.
import { onTestFinished } from 'vitest';
import { routeByName } from '../../shared/routes.ts';

/** The cases both sides are checked with: a page, where it is linked from, the words of its language. */
export const UNKNOWN_GUARD_CASES = [
  { locale: 'es', from: '/', to: '/blog', route: 'blog___es___default', message: 'Middleware desconocido isMagic' },
  { locale: 'en', from: '/en', to: '/en/blog', route: 'blog___en', message: 'Unknown middleware isMagic' },
] as const;

/** The route `name` runs the guard `guard` (which no one defined) after its own, until the test ends. */
export function withUnknownGuard(name: string, guard: string): void {
  const route = routeByName(name);
  if (!route) throw new Error(`No route ${name}`);
  const guards = route.allGuards;
  Object.assign(route, { allGuards: [...guards, guard] });
  onTestFinished(() => {
    Object.assign(route, { allGuards: guards });
  });
}
