// One lazy chunk per page: client/pages/<page>.tsx, named like its route-table page and its
// server module (server/pages/<page>.ts). The server resolves the matched page before rendering,
// the client before hydrating and before showing a navigation, so rendering never suspends.
import type { ComponentType } from 'react';
import type { PageBrand } from '../../shared/brand.ts';
import type { FormState } from '../../shared/page-data.ts';
import type { PageKey, RouteParams } from '../../shared/routes.ts';
import type { SessionUser } from '../../shared/user.ts';

/** What a page's component is given: its loader's data (`LoaderData<typeof loader>`), and the request's context. */
export type PageProps<D = null> = {
  data: D;
  params: RouteParams;
  /** The outcome of this page's form when it was posted without JavaScript. */
  form?: FormState | undefined;
  user: SessionUser | null;
  /** The company's identity (brand/): contact details, colours, logos. */
  brand: PageBrand;
};
type PageComponent = ComponentType<PageProps<never>>;

const loaded = new Map<PageKey, PageComponent>();
const loading = new Map<PageKey, Promise<PageComponent>>();

/** Loads a page's chunk once; a failed load is forgotten so that a retry can succeed. */
export function loadPage(page: PageKey): Promise<PageComponent> {
  const done = loaded.get(page);
  if (done) return Promise.resolve(done);
  let pending = loading.get(page);
  if (!pending) {
    // esbuild makes every file this pattern can name a chunk of its own (each is also an entry point of the build).
    pending = (import(`../pages/${page}.tsx`) as Promise<{ default: PageComponent }>).then(
      (mod) => {
        loaded.set(page, mod.default);
        loading.delete(page);
        return mod.default;
      },
      (error: unknown) => {
        loading.delete(page);
        throw error;
      },
    );
    loading.set(page, pending);
  }
  return pending;
}

/** A page component that has already been loaded; rendering one that is not is a bug. */
export function loadedPage(page: PageKey): PageComponent {
  const component = loaded.get(page);
  if (!component) throw new Error(`Page "${page}" rendered before its chunk was loaded`);
  return component;
}
