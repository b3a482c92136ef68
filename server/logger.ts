import { pino, stdSerializers, type DestinationStream, type Logger } from 'pino';

export type { Logger };

export const CENSORED = '[redacted]';

/** Keys whose values never reach a log line, at any depth: passwords, tokens, cookies, secrets. */
const SECRET_KEY = /pass(word)?$|token$|^jwt$|secret|^cookie$|^set-cookie$|^authorization$/i;

/** How deep censorSecrets looks into nested objects (deeper values are dropped, not risked). */
const MAX_DEPTH = 8;

/**
 * The log object with every value under a secret-named key replaced by "[redacted]", at any
 * depth. Copy-on-write: an object with nothing to hide is returned as it is, so the one flat
 * line logged per request costs no allocation (pino's own wildcard `redact` cloned every
 * field of every line: 15 % of a cached page's allocations, issue 7).
 */
export function censorSecrets(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return CENSORED;
  // Bytes, dates, maps and sets log as themselves or as {}: no keys to look into.
  if (ArrayBuffer.isView(value) || value instanceof Date || value instanceof Map || value instanceof Set) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const censored = censorSecrets(item, depth + 1);
      if (censored !== item) (copy ??= value.slice())[i] = censored;
    }
    return copy ?? value;
  }
  // An error logs as pino's serializer shapes it (type, message, stack, cause and its own
  // properties): censor that shape, since an error may carry a request's headers.
  const source =
    value instanceof Error ? (stdSerializers.err(value) as unknown as Record<string, unknown>) : (value as Record<string, unknown>);
  let copy: Record<string, unknown> | null = source === value ? null : { ...source };
  for (const key of Object.keys(source)) {
    const item = source[key];
    const censored = SECRET_KEY.test(key) ? CENSORED : censorSecrets(item, depth + 1);
    if (censored !== item) (copy ??= { ...source })[key] = censored;
  }
  return copy ?? source;
}

/** Structured logs (JSON lines on stdout, or `destination`); secrets are censored wherever they appear. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    formatters: { log: (object: Record<string, unknown>) => censorSecrets(object) as Record<string, unknown> },
    // Errors were shaped by pino's own serializer inside censorSecrets (pino runs the
    // formatter first): shaping them again would name their type "Object".
    serializers: { err: (shaped: unknown) => shaped },
  };
  // Asynchronous writes to stdout: a line goes out at once when nothing is being written, and
  // lines made meanwhile go out together, so that a busy server makes one write for many lines
  // and a slow reader of stdout (a full pipe) never stalls the event loop. Pino flushes what is
  // pending when the process exits.
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false }));
}
