import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured logs; secrets and tokens are redacted wherever they could appear. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]', '*.password', '*.token', '*.jwt'],
      censor: '[redacted]',
    },
  });
}
