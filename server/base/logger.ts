import { pino, stdSerializers, type DestinationStream, type Logger } from 'pino';

export type { Logger };

export const CENSORED = '[redacted]';

/** Keys whose values never reach a log line, at any depth: passwords, tokens, cookies, secrets. */
const SECRET_KEY = /pass(word)?$|token$|^jwt$|secret|^cookie$|^set-cookie$|^authorization$/i;

/** How far the reader of stdout may fall behind before log lines are dropped (not buffered). */
export const MAX_PENDING_LOG_BYTES = 8 * 1024 * 1024;

/** How deep censorSecrets looks into nested objects (deeper values are dropped, not risked). */
const MAX_DEPTH = 8;

/** An Error of this realm or of another one (a vm context, a worker). */
function isError(value: object): boolean {
  return value instanceof Error || Object.prototype.toString.call(value) === '[object Error]';
}

/**
 * The log object with every value under a secret-named key replaced by "[redacted]", at any
 * depth. Copy-on-write: an object with nothing to hide is returned as it is, so the one flat
 * line logged per request costs no allocation (pino's own wildcard `redact` cloned every
 * field of every line: 15 % of a cached page's allocations).
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
  // An error (from this realm or another: a vm context, a worker) logs as pino's serializer
  // shapes it (type, message, stack, cause and its own properties): censor that shape, since an
  // error may carry a request's headers. An object with toJSON logs as what that returns.
  if (isError(value)) return censorSecrets(stdSerializers.err(value as Error), depth);
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    let json: unknown;
    try {
      json = (value as { toJSON: () => unknown }).toJSON();
    } catch {
      return CENSORED;
    }
    return json === value ? value : censorSecrets(json, depth);
  }
  const source = value as Record<string, unknown>;
  let copy: Record<string, unknown> | null = null;
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
  if (destination) return pino(options, destination);
  // Stdout as pino writes it by default (asynchronously: lines made while a write is in flight
  // go out together, and a slow reader never stalls a request; pino flushes at exit), with one
  // bound: when the reader of stdout falls MAX_PENDING_LOG_BYTES behind, new lines are dropped
  // and counted rather than held in memory until the process runs out of it.
  const stdout = pino.destination({ dest: 1, sync: false, maxLength: MAX_PENDING_LOG_BYTES });
  const logger = pino(options, stdout);
  let dropped = 0;
  stdout.on('drop', (data: string | Buffer) => {
    dropped += Buffer.byteLength(data);
  });
  setInterval(() => {
    if (dropped === 0) return;
    logger.warn({ droppedBytes: dropped }, 'log lines dropped: stdout is not read fast enough');
    dropped = 0;
  }, 10_000).unref();
  return logger;
}
