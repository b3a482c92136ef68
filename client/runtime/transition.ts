import { PAGE_TRANSITION_NAME } from '../../shared/constants.ts';

// seed-spec §2: page transition named 'page', mode out-in: the leaving page finishes its exit
// before the entering page starts. CSS animations on `.page-leave-active` / `.page-enter-active`;
// `prefers-reduced-motion` turns them off and the swap is immediate.

export type TransitionPhase = 'idle' | 'leave' | 'enter';

export const TRANSITION_CLASS: Record<TransitionPhase, string> = {
  idle: '',
  leave: `${PAGE_TRANSITION_NAME}-leave-active`,
  enter: `${PAGE_TRANSITION_NAME}-enter-active`,
};

/** Longest a phase may take, in case an animation never reports its end. */
const MAX_PHASE_MS = 600;

export function prefersReducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Resolves when the element's current animation ends (or at once when none runs). */
export function animationDone(element: HTMLElement | null): Promise<void> {
  if (!element || prefersReducedMotion()) return Promise.resolve();
  const running = element.getAnimations?.() ?? [];
  if (running.length === 0) return Promise.resolve();
  return Promise.race([
    Promise.all(running.map((a) => a.finished.catch(() => undefined))).then(() => undefined),
    new Promise<void>((resolve) => setTimeout(resolve, MAX_PHASE_MS)),
  ]);
}

export function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}
