// Requests started by the client, counted so that a spinner can show while any is in flight
// and stop when it ends, whether it succeeded or failed (docs/specification.md §10.3).
let inFlight = 0;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

export function subscribeLoading(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function requestsInFlight(): number {
  return inFlight;
}

/** Counts a piece of work as a request in flight until it settles. */
export async function track<T>(work: Promise<T>): Promise<T> {
  inFlight++;
  emit();
  try {
    return await work;
  } finally {
    inFlight--;
    emit();
  }
}

/** Wraps window.fetch once, so that every request the client starts is counted. */
export function installFetchTracking(): void {
  const original = window.fetch.bind(window);
  if ((original as { tracked?: boolean }).tracked) return;
  const tracked = (input: RequestInfo | URL, init?: RequestInit) => track(original(input, init));
  Object.assign(tracked, { tracked: true });
  window.fetch = tracked;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
