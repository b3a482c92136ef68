import { createElement, lazy, Suspense, type ComponentType } from 'react';

/**
 * A part of the shell that the page does not need in order to hydrate (the cookie banner): on
 * the client it is its own chunk, fetched only when the part is shown, so that it costs the
 * first load nothing; on the server it is rendered at once (`preloadDeferred` is awaited before
 * every render). Both sides wrap it in the same Suspense boundary, so the server's markup stays as it
 * is until the chunk has arrived and hydrates it then.
 */
const everyPreload: (() => Promise<unknown> | null)[] = [];

/** What the server awaits before it renders (null once everything is loaded: nothing to wait for). */
export function preloadDeferred(): Promise<unknown> | null {
  const pending = everyPreload.map((preload) => preload()).filter((p) => p !== null);
  return pending.length ? Promise.all(pending) : null;
}

export function deferredComponent<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<unknown> | null = null;
  const Lazy = lazy(() => load().then((component) => ({ default: component })));

  function preload(): Promise<unknown> | null {
    if (loaded) return null;
    loading ??= load().then((component) => (loaded = component));
    return loading;
  }

  function Deferred(props: P) {
    const onServer = typeof window === 'undefined';
    if (onServer && !loaded) throw new Error('A deferred component was rendered on the server before preload() resolved');
    return createElement(Suspense, { fallback: null }, createElement(onServer ? loaded! : Lazy, props));
  }

  everyPreload.push(preload);
  return { Deferred, preload };
}
