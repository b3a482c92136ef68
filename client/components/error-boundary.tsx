import { Component, type ReactNode } from 'react';

type Props = {
  /** What shows instead of the children once one of them threw while rendering. */
  fallback: () => ReactNode;
  /** A new value (the next page's URL) gives the children another chance. */
  resetKey?: unknown;
  children: ReactNode;
};

type State = { failed: boolean; failedKey: unknown };

/**
 * Catches an error thrown while rendering (or hydrating) its children, so that a failing part
 * shows its fallback instead of React unmounting the whole page (a blank screen). React itself
 * reports the error to the console; the server's logs never see a browser's failure.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false, failedKey: undefined };

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    // Remember which key failed; a navigation (another key) clears the failure.
    if (!state.failed) return state.failedKey === props.resetKey ? null : { failedKey: props.resetKey };
    if (state.failedKey !== props.resetKey) return { failed: false, failedKey: props.resetKey };
    return null;
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback() : this.props.children;
  }
}
