// The little the site needs of a router, in ~100 lines instead of react-router's ~15 kB gzip of
// first-load JavaScript: the route table and its matcher are the site's own (shared/routes.ts)
// and pages load their data themselves (client/app.tsx), so what is left is the location, a
// way to change it (history.pushState) and links that use it. The same components render on
// the server (StaticRouter) and hydrate in the browser (BrowserRouter), so the markup agrees.
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from 'react';

export type Location = {
  pathname: string;
  search: string;
  hash: string;
  /** What the navigation carried (`navigate(to, {state})`), kept in the history entry. */
  state: unknown;
  /** Different for every navigation, even to the same URL. */
  key: string;
};

export type NavigateOptions = { replace?: boolean; state?: unknown };
export type Navigate = (to: string, options?: NavigateOptions) => void;

type Router = { location: Location; navigate: Navigate };

const RouterContext = createContext<Router | null>(null);

function useRouter(): Router {
  const router = useContext(RouterContext);
  if (!router) throw new Error('A link or a location outside <BrowserRouter>/<StaticRouter>');
  return router;
}

export function useLocation(): Location {
  return useRouter().location;
}

export function useNavigate(): Navigate {
  return useRouter().navigate;
}

function parsePath(path: string): Pick<Location, 'pathname' | 'search' | 'hash'> {
  const url = new URL(path, 'http://site.invalid');
  return { pathname: url.pathname, search: url.search, hash: url.hash };
}

/** The server's router: the request's URL, and no way to leave it. */
export function StaticRouter({ location, children }: { location: string; children: ReactNode }) {
  const router = useMemo<Router>(
    () => ({
      location: { ...parsePath(location), state: null, key: 'default' },
      navigate: () => {
        throw new Error('navigate() during server rendering');
      },
    }),
    [location],
  );
  return <RouterContext.Provider value={router}>{children}</RouterContext.Provider>;
}

/** History entries keep `{usr, key}` (the layout react-router used: entries from before still read). */
type HistoryEntry = { usr?: unknown; key?: string } | null;

function currentLocation(): Location {
  const { pathname, search, hash } = window.location;
  const entry = window.history.state as HistoryEntry;
  return { pathname, search, hash, state: entry?.usr ?? null, key: entry?.key ?? 'default' };
}

let keys = 0;

/** The browser's router: the address bar, pushState/replaceState, and back/forward. */
export function BrowserRouter({ children }: { children: ReactNode }) {
  const [location, setLocation] = useState(currentLocation);
  useEffect(() => {
    const moved = () => setLocation(currentLocation());
    window.addEventListener('popstate', moved);
    return () => window.removeEventListener('popstate', moved);
  }, []);
  const navigate = useCallback<Navigate>((to, options = {}) => {
    const url = new URL(to, window.location.href);
    if (url.origin !== window.location.origin) {
      window.location.assign(url);
      return;
    }
    const entry: HistoryEntry = { usr: options.state ?? null, key: `${Date.now().toString(36)}-${(keys++).toString(36)}` };
    if (options.replace) window.history.replaceState(entry, '', url);
    else window.history.pushState(entry, '', url);
    setLocation(currentLocation());
  }, []);
  const router = useMemo(() => ({ location, navigate }), [location, navigate]);
  return <RouterContext.Provider value={router}>{children}</RouterContext.Provider>;
}

export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  /** A path of the site (`/en/blog?page=2#top`). */
  to: string;
  replace?: boolean;
  state?: unknown;
};

/** Whether a click is the browser's to handle: a new tab or window, a download, another site. */
function leftToBrowser(event: MouseEvent<HTMLAnchorElement>, url: URL): boolean {
  const { target } = event.currentTarget;
  return (
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.altKey ||
    event.ctrlKey ||
    event.shiftKey ||
    (target !== '' && target !== '_self') ||
    event.currentTarget.hasAttribute('download') ||
    url.origin !== window.location.origin
  );
}

/** An `<a href>` that works without JavaScript and, with it, navigates without a reload. */
export function Link({ to, replace, state, onClick, ...rest }: LinkProps) {
  const { location, navigate } = useRouter();
  return (
    <a
      {...rest}
      href={to}
      onClick={(event) => {
        onClick?.(event);
        const url = new URL(to, window.location.href);
        if (leftToBrowser(event, url)) return;
        event.preventDefault();
        const path = url.pathname + url.search + url.hash;
        // A link to the page already shown replaces its history entry (no duplicate "back" step).
        const same = path === location.pathname + location.search + location.hash;
        navigate(path, { replace: replace ?? same, state });
      }}
    />
  );
}
