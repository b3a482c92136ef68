// React Router's routes of the client: the route table's route objects (shared/routes.ts) with
// the element each renders, and a catch-all for paths that match none. The app renders them
// for the URL it shows (`useRoutes(routes, shownUrl)`): the address bar moves at once, the page
// follows when its data and chunk have arrived. React Router matched that URL against the whole
// table already (matchRoute, which keeps its answers: ranking ~90 routes costs ~0.2 ms a call),
// so a render gives useRoutes that route and the catch-all only.
import { createContext, createElement, useContext } from 'react';
import type { RouteObject } from 'react-router-dom';
import type { PageBrand } from '../shared/brand.ts';
import type { PagePayload } from '../shared/page-data.ts';
import { ROUTES, ROUTE_OBJECTS, type PageKey } from '../shared/routes.ts';
import { CallToAction, hasCallToAction } from './components/call-to-action.tsx';
import { ErrorView } from './components/error-view.tsx';
import { loadedPage } from './runtime/page-chunks.ts';

type Shown = { payload: PagePayload; brand: PageBrand };

const ShownContext = createContext<Shown | null>(null);

/** The page the app shows, with the server's data for it. */
export const ShownPageProvider = ShownContext.Provider;

function useShown(): Shown {
  const shown = useContext(ShownContext);
  if (!shown) throw new Error('A route element outside <ShownPageProvider>');
  return shown;
}

/** A route's element: its page with the data the server loaded, or the error page the server decided on. */
function RoutePage({ page }: { page: PageKey | null }) {
  const { payload, brand } = useShown();
  const { state } = payload;
  if (state.kind === 'error') return <ErrorView error={state.error} />;
  if (page !== state.page) throw new Error(`The route shows "${String(page)}" but the server loaded "${state.page}"`);
  // The component comes from the loaded-chunk cache: the same identity on every render.
  const element = createElement(loadedPage(page), {
    data: state.data as never,
    params: payload.params,
    form: payload.form,
    user: payload.user,
    brand,
  });
  if (!hasCallToAction(page)) return element;
  return (
    <>
      {element}
      <CallToAction page={page} user={payload.user} />
    </>
  );
}

const pageOf = new Map(ROUTES.map((route) => [route.name, route.page]));

const PAGE_ROUTES: RouteObject[] = ROUTE_OBJECTS.map((route) => ({ ...route, element: <RoutePage page={pageOf.get(route.id) ?? null} /> }));

/** Unmatched: the server answered its 404 page. */
const CATCH_ALL: RouteObject = { path: '*', element: <RoutePage page={null} /> };

const routesByName = new Map<string | null, RouteObject[]>([
  [null, [CATCH_ALL]],
  ...PAGE_ROUTES.map((route): [string, RouteObject[]] => [route.id!, [route, CATCH_ALL]]),
]);

/** The routes a render of the page shown needs: its own (by the route name the server matched) and the catch-all. */
export function routesFor(routeName: string | null): RouteObject[] {
  return routesByName.get(routeName) ?? [CATCH_ALL];
}
