import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../server/base/logger.ts';

/** The server's own logger (its censoring included), writing its JSON lines where the test reads them. */
export function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString());
      callback();
    },
  });
  return { logger: createLogger('info', stream), lines };
}
