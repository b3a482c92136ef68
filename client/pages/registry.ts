// One lazy chunk per page. The server resolves the matched page before rendering, the client
// before hydrating and before showing a navigation, so rendering never suspends.
import type { PageBrand } from '../../shared/brand.ts';
import type { ComponentType } from 'react';
import type { FormState, PageDataMap } from '../../shared/page-data.ts';
import type { SessionUser } from '../../shared/user.ts';
import type { PageKey, RouteParams } from '../../shared/routes.ts';

export type PageProps<K extends PageKey = PageKey> = {
  data: PageDataMap[K];
  params: RouteParams;
  /** The outcome of this page's form when it was posted without JavaScript. */
  form?: FormState | undefined;
  user: SessionUser | null;
  /** The company's identity (brand/): contact details, colours, logos. */
  brand: PageBrand;
};
export type PageModule = { default: ComponentType<PageProps<never>> };

export const PAGE_MODULES: Record<PageKey, () => Promise<PageModule>> = {
  home: () => import('./home.tsx'),
  login: () => import('./login.tsx'),
  changePassword: () => import('./changePassword.tsx'),
  profile: () => import('./profile.tsx'),
  blog: () => import('./blog.tsx'),
  blogPost: () => import('./blogPost.tsx'),
  contact: () => import('./contact.tsx'),
  legal: () => import('./legal.tsx'),
  admin: () => import('./admin.tsx'),
  client: () => import('./client.tsx'),
  organization: () => import('./organization.tsx'),
  expert: () => import('./expert.tsx'),
  projectNew: () => import('./projectNew.tsx'),
  project: () => import('./project.tsx'),
  notFound: () => import('./notFound.tsx'),
  twoFactor: () => import('./twoFactor.tsx'),
  twoFactorSetup: () => import('./twoFactorSetup.tsx'),
  invitation: () => import('./invitation.tsx'),
  forgotPassword: () => import('./forgotPassword.tsx'),
  resetPassword: () => import('./resetPassword.tsx'),
  confirmEmail: () => import('./confirmEmail.tsx'),
};

const loaded = new Map<PageKey, ComponentType<PageProps<never>>>();
const loading = new Map<PageKey, Promise<ComponentType<PageProps<never>>>>();

/** Loads a page's chunk once; a failed load is forgotten so that a retry can succeed. */
export function loadPage(page: PageKey): Promise<ComponentType<PageProps<never>>> {
  const done = loaded.get(page);
  if (done) return Promise.resolve(done);
  let pending = loading.get(page);
  if (!pending) {
    pending = PAGE_MODULES[page]().then(
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
export function loadedPage(page: PageKey): ComponentType<PageProps<never>> {
  const component = loaded.get(page);
  if (!component) throw new Error(`Page "${page}" rendered before its chunk was loaded`);
  return component;
}
