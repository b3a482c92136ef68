// A page's data that does not decide its status is given by its loader as a promise, one field
// of its data (the home page's CMS content, a dashboard's lists, a project's conversation).
// Such a field is waited for a moment (STREAM_WAIT_MS): what has arrived by then is part of the
// page like any data — rendered in the first byte, kept by the render cache. What has not
// streams: the shell (head, navbar, the page's frame) leaves at once, the section follows in
// the same response when its data arrives (Suspense and React Router's <Await> in the page's
// component), and the page's boot data, written last, carries the value for hydration.
// A client navigation's /_data waits for everything: its JSON is whole.

/** How long a page's slow data is waited for before the shell is sent without it. */
export const STREAM_WAIT_MS = 15;

/**
 * A field to stream, started before the loader awaits anything else: a failure meanwhile is not
 * an unhandled rejection (the render's `settleData` logs it and shows the section missing).
 */
export function streamed<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** The fields of a page's data that are still promises. */
export function streamedFields(data: unknown): [string, Promise<unknown>][] {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return [];
  return Object.entries(data).filter((entry): entry is [string, Promise<unknown>] => isThenable(entry[1]));
}

/**
 * The data with every field that arrives within `waitMs` in its place; the others stay promises
 * (0 or less: every field waited for). A field that fails is logged and is null: a section that
 * does not decide the page's status never fails the page (its component says it is missing).
 */
export async function settleData<D>(data: D, waitMs: number, onError: (error: unknown) => void): Promise<D> {
  const fields = streamedFields(data);
  if (fields.length === 0) return data;
  const settled = { ...(data as Record<string, unknown>) };
  const safe = fields.map(([key, promise]) => {
    const value = Promise.resolve(promise).catch((error: unknown) => {
      onError(error);
      return null;
    });
    settled[key] = value;
    return value.then((resolved) => {
      settled[key] = resolved;
    });
  });
  const all = Promise.all(safe);
  if (waitMs <= 0) await all;
  else {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
  }
  // A field settled after the race still holds its promise here: it streams.
  return { ...settled } as D;
}

/**
 * The data with every streamed field's value, for the boot data written after React's stream:
 * by then they have arrived (React waited for them), unless the render was cut (its deadline):
 * then what is still missing is null, as the browser renders that section itself.
 */
export async function resolvedData(data: unknown, cut: Promise<void>): Promise<unknown> {
  const fields = streamedFields(data);
  if (fields.length === 0) return data;
  const values = await Promise.all(fields.map(([, promise]) => Promise.race([promise, cut.then(() => null)])));
  return { ...(data as Record<string, unknown>), ...Object.fromEntries(fields.map(([key], i) => [key, values[i]])) };
}
