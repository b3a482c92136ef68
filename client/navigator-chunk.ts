// What the browser needs only once the visitor moves (runtime/navigator.ts): its own chunk,
// loaded once, shared by the navigation, the live refresh and link prefetching.
import type * as NavigatorModule from './runtime/navigator.ts';

export type Navigator = typeof NavigatorModule;

let navigatorLoad: Promise<Navigator> | null = null;

export function loadNavigator(): Promise<Navigator> {
  navigatorLoad ??= import('./runtime/navigator.ts').catch((error: unknown) => {
    navigatorLoad = null;
    throw error;
  });
  return navigatorLoad;
}
