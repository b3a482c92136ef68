// A Server-Sent Events client for tests: reads a live stream (server/live/) off a real socket,
// frame by frame as a browser's EventSource would, and waits for the events a test expects.
import { get, type IncomingHttpHeaders } from 'node:http';
import { scaled } from './time-scale.ts';

export type SseEvent = { event: string; data: string; id: string | null };

export type SseStream = {
  status: number;
  headers: IncomingHttpHeaders;
  /** Every event so far, in order (comments, such as heartbeats, counted apart). */
  events: SseEvent[];
  comments: number;
  /** The first event of `type` after those already taken by `next` (waits up to `timeoutMs`, scaled by TEST_TIME_SCALE). */
  next(type: string, timeoutMs?: number): Promise<SseEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
};

export function openStream(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent: false, headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
      const events: SseEvent[] = [];
      const taken = new Set<SseEvent>();
      let waiters: (() => void)[] = [];
      let buffer = '';
      let endedResolve!: () => void;
      const ended = new Promise<void>((r) => (endedResolve = r));
      const stream: SseStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        events,
        comments: 0,
        ended,
        close: () => request.destroy(),
        next(type, timeoutMs = 5000) {
          const deadlineMs = scaled(timeoutMs);
          return new Promise((found, failed) => {
            const look = () => {
              const event = events.find((e) => e.event === type && !taken.has(e));
              if (!event) return false;
              taken.add(event);
              found(event);
              return true;
            };
            if (look()) return;
            const timer = setTimeout(() => {
              waiters = waiters.filter((w) => w !== check);
              failed(new Error(`no "${type}" event within ${deadlineMs} ms; had: ${events.map((e) => e.event).join(', ')}`));
            }, deadlineMs);
            const check = () => {
              if (look()) {
                clearTimeout(timer);
                waiters = waiters.filter((w) => w !== check);
              }
            };
            waiters.push(check);
          });
        },
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: SseEvent = { event: 'message', data: '', id: null };
          let isEvent = false;
          for (const line of frame.split('\n')) {
            if (line.startsWith(':')) stream.comments++;
            else if (line.startsWith('event: ')) {
              event.event = line.slice(7);
              isEvent = true;
            } else if (line.startsWith('data: ')) {
              event.data += line.slice(6);
              isEvent = true;
            } else if (line.startsWith('id: ')) event.id = line.slice(4);
          }
          if (isEvent) {
            events.push(event);
            for (const waiter of [...waiters]) waiter();
          }
        }
      });
      res.on('end', endedResolve);
      res.on('close', endedResolve);
      resolve(stream);
    });
    request.on('error', reject);
  });
}
