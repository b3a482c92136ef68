import { useEffect, useEffectEvent, type RefObject } from 'react';

/**
 * Calls `onShown` once, when the element comes near the viewport (the callback runs later, in
 * the observer's own task: nothing is set synchronously in the effect). Without
 * IntersectionObserver, never.
 */
export function useWhenShown(elementRef: RefObject<HTMLElement | null>, onShown: () => void): void {
  const shown = useEffectEvent(onShown);
  useEffect(() => {
    const element = elementRef.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        shown();
      },
      { rootMargin: '200px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [elementRef]);
}
