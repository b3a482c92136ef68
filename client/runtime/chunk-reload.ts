import { CHUNK_RELOAD_GUARD_MS } from '../../shared/constants.ts';

// A chunk-load failure ('Loading chunk N failed', e.g. after a deploy removed a
// chunk) reloads the page, at most once per 60 s, tracked in sessionStorage; a second failure
// within 60 s shows the error page instead of looping.
export const CHUNK_RELOAD_KEY = 'chunk-reload-at';

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /Loading chunk \S+ failed|dynamically imported module|Importing a module script failed|error loading dynamically imported|ChunkLoadError/i.test(
    message,
  );
}

/** True when the page may reload now (and records the reload), false inside the guard window. */
export function claimChunkReload(now: number = Date.now(), storage: Storage = sessionStorage): boolean {
  let last = Number.NaN;
  try {
    last = Number(storage.getItem(CHUNK_RELOAD_KEY));
  } catch {
    // Storage unavailable (privacy mode): allow one reload per page life.
  }
  if (Number.isFinite(last) && last > 0 && now - last < CHUNK_RELOAD_GUARD_MS) return false;
  try {
    storage.setItem(CHUNK_RELOAD_KEY, String(now));
  } catch {
    // ignore
  }
  return true;
}
