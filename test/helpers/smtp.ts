// A real SMTP server in the test process (smtp-server on 127.0.0.1, a free port, no TLS, no
// authentication needed) that keeps every message it accepts, parsed by mailparser. Point the
// site at it with SMTP_URL: smtp.url. It can refuse the next messages, as a busy mail server does,
// or every connection, as a server that is down for maintenance does.
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { scaled } from './time-scale.ts';

export type ReceivedMail = ParsedMail & {
  /** The SMTP envelope: who the server was told the message is from and for. */
  envelope: { from: string; to: string[] };
};

export type TestSmtp = {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  /** Every message accepted so far, in order. */
  messages: ReceivedMail[];
  /** How many messages were refused so far. */
  refused: number;
  /** Refuses the next `count` messages with a temporary error (451), after reading them. */
  refuseNext(count: number): void;
  /** While on, answers every new connection with 421 and closes it (nodemailer's verify() fails). */
  refuseConnections(on: boolean): void;
  /** Resolves with the messages once at least `count` were accepted; rejects after `timeoutMs` (scaled by TEST_TIME_SCALE). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  stop(): Promise<void>;
};

export async function startSmtp(): Promise<TestSmtp> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  let toRefuse = 0;
  let refusingConnections = false;
  const state = { refused: 0 };

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // A test stops it: connections still open are closed at once, not after 30 s.
    closeTimeout: 100,
    onConnect(_session, callback) {
      if (!refusingConnections) return callback();
      callback(Object.assign(new Error('Service not available, closing transmission channel'), { responseCode: 421 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (toRefuse > 0) {
          toRefuse--;
          state.refused++;
          callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
          return;
        }
        simpleParser(Buffer.concat(chunks)).then(
          (parsed) => {
            const envelope = {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            };
            messages.push(Object.assign(parsed, { envelope }));
            for (const wake of waiters) wake();
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    get refused() {
      return state.refused;
    },
    refuseNext(count) {
      toRefuse = count;
    },
    refuseConnections(on) {
      refusingConnections = on;
    },
    waitFor(count, timeoutMs = 5_000) {
      const deadlineMs = scaled(timeoutMs);
      return new Promise((resolve, reject) => {
        const check = () => {
          if (messages.length < count) return;
          cleanup();
          resolve(messages);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`The SMTP server got ${messages.length} of the ${count} messages awaited within ${deadlineMs} ms`));
        }, deadlineMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
