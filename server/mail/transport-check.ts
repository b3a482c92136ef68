// Whether the mail server answers: nodemailer's verify() (connection, greeting, TLS, sign-in;
// nothing is sent) a moment after start, and again every VERIFY_RETRY_MS while it fails. A
// failure is a warning in the log and `"mail": "failing"` in /readyz — degraded, never unready:
// every instance shares the mail server, and the e-mails wait in the outbox meanwhile, so pulling
// instances out of the load balancer would only add an outage. It passes again as soon as a
// verify or a send goes through. A refused send asks for a verify (at most one per
// VERIFY_RETRY_MS): a recipient the server refuses is not a server that is away (docs/decisions/050).
import type { Logger } from '../base/logger.ts';
import { errorText } from './sender.ts';

export type TransportState = 'ok' | 'failing';

/** Runs `task` after `ms`; answers how to cancel it (tests run it when they choose). */
export type Schedule = (task: () => void, ms: number) => () => void;

/** The first check, after the start itself (like the outbox's first look). */
export const VERIFY_FIRST_MS = 2_000;
/** While the server fails the check: how long until the next one. */
export const VERIFY_RETRY_MS = 60_000;

export type TransportCheck = {
  /** The last check's outcome; undefined before the first one answered. */
  state(): TransportState | undefined;
  /** Checks now (one check at a time: a call during one shares it). */
  verify(): Promise<TransportState>;
  /** An e-mail went through: the server answers. */
  sent(): void;
  /** An e-mail was refused: the server is checked, unless it was a moment ago. */
  refused(): void;
  /** The first check, VERIFY_FIRST_MS from now. */
  start(): void;
  stop(): Promise<void>;
};

export type TransportCheckDeps = {
  verify: () => Promise<void>;
  logger: Logger;
  now: () => number;
  schedule?: Schedule | undefined;
  firstMs?: number | undefined;
  retryMs?: number | undefined;
};

function timerSchedule(task: () => void, ms: number): () => void {
  const timer = setTimeout(task, ms);
  timer.unref();
  return () => clearTimeout(timer);
}

export function createTransportCheck(deps: TransportCheckDeps): TransportCheck {
  const { logger, now } = deps;
  const schedule = deps.schedule ?? timerSchedule;
  const retryMs = deps.retryMs ?? VERIFY_RETRY_MS;
  let state: TransportState | undefined;
  let running: Promise<TransportState> | null = null;
  let cancel: (() => void) | null = null;
  let lastCheck = -Infinity;
  let stopped = false;

  function later(ms: number): void {
    if (stopped || cancel) return;
    cancel = schedule(() => {
      cancel = null;
      void verify();
    }, ms);
  }

  function passed(): TransportState {
    if (state === 'failing') logger.info('the mail server answers again: e-mails go out');
    state = 'ok';
    return state;
  }

  function failed(error: unknown): TransportState {
    logger.warn(
      { err: error, retryInMs: retryMs },
      `the mail server did not answer the check (${errorText(error)}): e-mails wait in the outbox; /readyz says "mail": "failing"`,
    );
    state = 'failing';
    later(retryMs);
    return state;
  }

  function verify(): Promise<TransportState> {
    lastCheck = now();
    running ??= deps
      .verify()
      .then(passed, failed)
      .finally(() => {
        running = null;
      });
    return running;
  }

  return {
    state: () => state,
    verify,
    sent() {
      if (state === 'failing') {
        cancel?.();
        cancel = null;
      }
      passed();
    },
    refused() {
      if (running || cancel || now() - lastCheck < retryMs) return;
      later(0);
    },
    start() {
      later(deps.firstMs ?? VERIFY_FIRST_MS);
    },
    async stop() {
      stopped = true;
      cancel?.();
      cancel = null;
      await running;
    },
  };
}
