// Hashed build assets: immutable for a year, served from the brotli or gzip copy made at build
// time when the browser accepts it (no compression work per request).
import express, { type RequestHandler } from 'express';
import { existsSync, readdirSync } from 'node:fs';
import { extname } from 'node:path';

const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

export function hashedAssets(dir: string): RequestHandler[] {
  const files = new Set(existsSync(dir) ? readdirSync(dir) : []);
  const pickEncoded: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const name = req.path.slice(1);
    if (!files.has(name)) return next();
    const accepted = req.acceptsEncodings(ENCODINGS.map((e) => e.name));
    const encoding = ENCODINGS.find((e) => e.name === accepted && files.has(name + e.suffix));
    res.vary('Accept-Encoding');
    if (!encoding) return next();
    res.setHeader('Content-Encoding', encoding.name);
    res.type(extname(name));
    req.url = req.url.replace(name, name + encoding.suffix);
    next();
  };
  const serve = express.static(dir, {
    immutable: true,
    maxAge: '365d',
    index: false,
    fallthrough: false,
  });
  return [pickEncoded, serve];
}

/**
 * public/ (favicon, logo, default avatar): a short cache. The file list is read once at start
 * so that page requests never touch the disk on their way to the renderer.
 */
export function publicFiles(dir: string): RequestHandler {
  const names = new Set(existsSync(dir) ? readdirSync(dir).map((name) => `/${name}`) : []);
  const serve = express.static(dir, { maxAge: '1h', index: false });
  return (req, res, next) => (names.has(req.path) ? serve(req, res, next) : next());
}
