import { PAGE_TRANSITION_NAME } from '../../shared/constants.ts';

// Page transition named 'page', mode out-in: the leaving page finishes its exit
// before the entering page starts. CSS animations on `.page-leave-active` / `.page-enter-active`;
// `prefers-reduced-motion` turns them off and the swap is immediate (runtime/navigator.ts plays it).

export type TransitionPhase = 'idle' | 'leave' | 'enter';

export const TRANSITION_CLASS: Record<TransitionPhase, string> = {
  idle: '',
  leave: `${PAGE_TRANSITION_NAME}-leave-active`,
  enter: `${PAGE_TRANSITION_NAME}-enter-active`,
};
