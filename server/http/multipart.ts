// One file from a multipart/form-data request (the documents of a project), read with busboy
// into memory up to a limit and no further: a bigger file is refused as soon as it passes the
// limit, without reading the rest into memory. Its bytes are kept in pieces of the size they are
// stored in, copied once as they come and never joined into one buffer: a file costs its own
// size in memory, not twice that. Other fields are ignored (at most a few).
import busboy from 'busboy';
import type { Request } from 'express';
import { ApiError } from './errors.ts';

export type UploadedFile = {
  name: string;
  /** The file's bytes in order, in pieces of `chunkBytes` (the last one shorter; none when it is empty). */
  chunks: Buffer[];
  fields: Record<string, string>;
};

export function isMultipart(req: Request): boolean {
  return (req.get('content-type') ?? '').toLowerCase().startsWith('multipart/form-data');
}

/** The body's size as the client declares it (Content-Length), or null when it does not (chunked). */
export function declaredLength(req: Request): number | null {
  const header = req.get('content-length');
  return header !== undefined && /^[0-9]{1,15}$/.test(header) ? Number(header) : null;
}

/**
 * The file of `field`, at most `maxBytes` (past them: `tooLarge()`, by default 413 `file_too_large`,
 * the rest left unread), in pieces of `chunkBytes`; other fields as strings.
 */
export function readMultipartFile(
  req: Request,
  options: { field: string; maxBytes: number; chunkBytes: number; tooLarge?: () => ApiError },
): Promise<UploadedFile> {
  if (!isMultipart(req)) {
    return Promise.reject(
      new ApiError(415, 'unsupported_media_type', `Send the file as multipart/form-data in the field "${options.field}"`),
    );
  }
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // busboy's limit fires when the size reaches it: one byte more, so that a file of exactly maxBytes passes.
        limits: { files: 1, fileSize: options.maxBytes + 1, fields: 10, fieldSize: 1024, parts: 12 },
        defParamCharset: 'utf8',
      });
    } catch {
      reject(new ApiError(400, 'invalid_multipart', 'The multipart body could not be read'));
      return;
    }
    let settled = false;
    let file: { name: string; chunks: Buffer[] } | null = null;
    // No file name (busboy reads filename="" as none): with no bytes either, it is a browser's file field left empty.
    let unnamed = false;
    // The piece being filled, and how many of its bytes are.
    let piece: Buffer | null = null;
    let filled = 0;
    const fail = (error: ApiError) => {
      if (settled) return;
      settled = true;
      // What was read of a refused file is let go at once, not when the request ends.
      if (file) file.chunks = [];
      piece = null;
      req.unpipe(parser);
      // Drain what the client still sends so that the answer reaches it.
      req.resume();
      reject(error);
    };
    const fields: Record<string, string> = {};
    parser.on('file', (name, stream, info) => {
      // A body cut short errs on the file's stream too: unheard, it would bring the process down.
      stream.on('error', () => fail(new ApiError(400, 'invalid_multipart', 'The multipart body could not be read')));
      if (name !== options.field || file) {
        stream.resume();
        return;
      }
      const current = { name: info.filename ?? 'document', chunks: [] as Buffer[] };
      unnamed = info.filename === undefined;
      file = current;
      stream.on('data', (data: Buffer) => {
        if (settled) return;
        for (let offset = 0; offset < data.length;) {
          piece ??= Buffer.allocUnsafe(options.chunkBytes);
          const copied = data.copy(piece, filled, offset);
          offset += copied;
          filled += copied;
          if (filled === options.chunkBytes) {
            current.chunks.push(piece);
            piece = null;
            filled = 0;
          }
        }
      });
      stream.on('limit', () =>
        fail(
          options.tooLarge?.() ??
            new ApiError(413, 'file_too_large', `A document may have at most ${Math.round(options.maxBytes / 1024 / 1024)} MB`, {
              file: 'validation.fileTooLarge',
            }),
        ),
      );
    });
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('error', () => fail(new ApiError(400, 'invalid_multipart', 'The multipart body could not be read')));
    parser.on('close', () => {
      if (settled) return;
      settled = true;
      if (!file || (unnamed && file.chunks.length === 0 && filled === 0)) {
        reject(
          new ApiError(400, 'invalid_request', `Invalid request: no file in the field "${options.field}"`, { file: 'validation.required' }),
        );
        return;
      }
      const found: { name: string; chunks: Buffer[] } = file;
      if (piece && filled > 0) found.chunks.push(piece.subarray(0, filled));
      resolve({ name: found.name, chunks: found.chunks, fields });
    });
    req.pipe(parser);
  });
}
