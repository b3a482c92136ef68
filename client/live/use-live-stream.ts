// The tab's live stream (server/live/streams.ts): an EventSource on LIVE_PATH while a user is
// signed in. The browser reconnects by itself (sending Last-Event-ID, so that the notifications
// missed meanwhile come); a stream the server refused (429 past a cap, 503 while it shuts down)
// is opened again after RETRY_REFUSED_MS; one the server ended for good (`end`: signed out) is
// not. Without EventSource (or JavaScript) the pages are as they were: read on each load.
import { useEffect, useRef } from 'react';
import { LIVE_PATH, type LiveEvent } from '../../shared/notifications.ts';

/** A refused stream is asked for again after this long. */
export const RETRY_REFUSED_MS = 60_000;

export type LiveHandlers = {
  /** The count of unread notifications; `arrived`: a new notification came with it. */
  onNotifications(unread: number, arrived: boolean): void;
  /** A project the user sees changed. */
  onProject(id: number): void;
  /** The stream is back after a break: what changed meanwhile is unknown, read the page again. */
  onReconnected(): void;
};

type DataOf<T extends LiveEvent['type']> = Extract<LiveEvent, { type: T }>['data'];

function dataOf<T extends LiveEvent['type']>(event: Event): DataOf<T> | null {
  try {
    return JSON.parse((event as MessageEvent<string>).data) as unknown as DataOf<T> | null;
  } catch {
    return null;
  }
}

export function useLiveStream(enabled: boolean, handlers: LiveHandlers): void {
  const current = useRef(handlers);
  useEffect(() => {
    current.current = handlers;
  });

  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let broken = false;
    const open = () => {
      const stream = new EventSource(LIVE_PATH);
      source = stream;
      stream.addEventListener('open', () => {
        if (broken) current.current.onReconnected();
        broken = false;
      });
      stream.addEventListener('error', () => {
        broken = true;
        // CONNECTING: the browser tries again by itself; CLOSED: the server refused the stream.
        if (stream.readyState === EventSource.CLOSED) retry = setTimeout(open, RETRY_REFUSED_MS);
      });
      stream.addEventListener('notification', (event) => {
        const data = dataOf<'notification'>(event);
        if (data) current.current.onNotifications(data.unread, true);
      });
      stream.addEventListener('unread', (event) => {
        const data = dataOf<'unread'>(event);
        if (data) current.current.onNotifications(data.unread, false);
      });
      stream.addEventListener('project', (event) => {
        const data = dataOf<'project'>(event);
        if (data) current.current.onProject(data.id);
      });
      stream.addEventListener('end', () => stream.close());
    };
    open();
    return () => {
      clearTimeout(retry);
      source?.close();
    };
  }, [enabled]);
}
