// React's markup is a pure function of what it is given: the boot data (page payload,
// messages, consent…) and the URL, which is part of the payload. So the markup of a render
// can be reused for any later request whose boot data is the very same — anonymous public
// pages, and a signed-in user's own pages while nothing of theirs changes — keyed by a SHA-256
// of that boot data. Nothing else goes in the key and nothing else is needed: a different
// user, locale, consent, branding, form state or content gives a different key, so a reused
// markup is always byte for byte what a fresh render would write (docs/decisions/006). The
// visitor's theme is not in it: it is an attribute of <html>, written around the markup
// (docs/decisions/023).
//
// Admission: markup is kept from the second time a key is seen (pages with a one-time token,
// such as the contact form, never fill the cache). Bounded by bytes, least recently used out.
import { hash } from 'node:crypto';

export type RenderCacheOptions = {
  /** Upper bound of the markup kept, in bytes. */
  maxBytes: number;
  /** How many keys seen once are remembered for admission. */
  maxCandidates?: number;
};

export type CachedMarkup = {
  /** The markup (UTF-8) split at each occurrence of the render's nonce (usually one part). */
  parts: Buffer[];
};

/** `markup` cut at each occurrence of `separator`. */
export function splitBuffer(markup: Buffer, separator: string): Buffer[] {
  if (!separator) return [markup];
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = markup.indexOf(separator, from); at !== -1; at = markup.indexOf(separator, from)) {
    parts.push(markup.subarray(from, at));
    from = at + Buffer.byteLength(separator);
  }
  parts.push(markup.subarray(from));
  return parts;
}

export function renderKey(bootJson: string): string {
  return hash('sha256', bootJson, 'base64url');
}

export function createRenderCache({ maxBytes, maxCandidates = 2000 }: RenderCacheOptions) {
  const entries = new Map<string, CachedMarkup & { bytes: number }>();
  const candidates = new Set<string>();
  let bytes = 0;
  let hits = 0;
  let misses = 0;

  return {
    /** The markup for `key`, or null; a hit makes it the most recently used. */
    get(key: string): CachedMarkup | null {
      const entry = entries.get(key);
      if (!entry) {
        misses++;
        return null;
      }
      hits++;
      entries.delete(key);
      entries.set(key, entry);
      return entry;
    },
    /** Whether a render for `key` should keep its markup (the key was seen before). */
    wants(key: string): boolean {
      if (entries.has(key)) return false;
      if (candidates.delete(key)) return true;
      if (candidates.size >= maxCandidates) candidates.delete(candidates.values().next().value!);
      candidates.add(key);
      return false;
    },
    /** Keeps `markup` (rendered with `nonce`) under `key`. */
    set(key: string, markup: Buffer, nonce: string): void {
      const size = markup.length;
      if (size > maxBytes / 4 || entries.has(key)) return;
      while (bytes + size > maxBytes && entries.size > 0) {
        const [oldest, entry] = entries.entries().next().value!;
        entries.delete(oldest);
        bytes -= entry.bytes;
      }
      entries.set(key, { parts: splitBuffer(markup, nonce), bytes: size });
      bytes += size;
    },
    stats() {
      return { entries: entries.size, bytes, hits, misses };
    },
  };
}

export type RenderCache = ReturnType<typeof createRenderCache>;
