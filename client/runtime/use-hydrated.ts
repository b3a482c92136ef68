import { useSyncExternalStore } from 'react';

const subscribeNothing = () => () => {};

/**
 * False on the server and while hydrating, true once the page runs in the browser: the
 * buttons that need JavaScript stay disabled until it is there (no effect, no mismatch).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNothing,
    () => true,
    () => false,
  );
}
