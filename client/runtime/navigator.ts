// What the browser needs only once the visitor moves, in a chunk of its own: fetched when the
// browser is idle after hydration, or by the first navigation. It asks the server what a URL
// shows (/_data runs the same matching, guards and loaders as a full page load), plays the
// page transition (named 'page', out-in), updates the document outside React's
// root, and prefetches the pages of visible links. What it needs of the entry is handed in,
// so that it shares no module with it.
import type { DataResponse } from '../../shared/page-data.ts';

export { applyHead } from './head.ts';
export { prefetchVisibleLinks } from './prefetch.ts';

export async function fetchPageData(url: string, signal: AbortSignal): Promise<DataResponse> {
  const response = await fetch(`/_data?path=${encodeURIComponent(url)}`, {
    signal,
    headers: { Accept: 'application/json' },
    credentials: 'same-origin',
  });
  if (!response.ok) throw new Error(`Page data for ${url} answered ${response.status}`);
  return (await response.json()) as DataResponse;
}

/** Longest a phase may take, in case an animation never reports its end. */
const MAX_PHASE_MS = 600;

export function prefersReducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Resolves when the element's current animation ends (or at once when none runs). */
function animationDone(element: HTMLElement | null): Promise<void> {
  if (!element || prefersReducedMotion()) return Promise.resolve();
  const running = element.getAnimations?.() ?? [];
  if (running.length === 0) return Promise.resolve();
  return Promise.race([
    Promise.all(running.map((a) => a.finished.catch(() => undefined))).then(() => undefined),
    new Promise<void>((resolve) => setTimeout(resolve, MAX_PHASE_MS)),
  ]);
}

function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}

/** The app's side of a transition: its element and its state. */
export type Transition = {
  element: () => HTMLElement | null;
  /** The leaving page starts its exit (rendered at once). */
  leave: () => void;
  /** The entering page replaces it (rendered at once), entering with an animation or not. */
  enter: (animated: boolean) => void;
  /** The animation is over. */
  idle: () => void;
  aborted: () => boolean;
};

/** Out-in: the leaving page finishes its exit before the entering page starts. */
export async function playTransition(transition: Transition): Promise<void> {
  const animated = !prefersReducedMotion();
  if (animated) {
    transition.leave();
    await animationDone(transition.element());
    if (transition.aborted()) return;
  }
  transition.enter(animated);
  if (animated) {
    await nextFrame();
    await animationDone(transition.element());
    if (!transition.aborted()) transition.idle();
  }
}
