// A user's branding never holds a page up: a source that hangs or fails gives the default navbar
// (null) within the timeout and one warning; what it answers in time is sanitised.
import { expect, onTestFinished, test, vi } from 'vitest';
import { BRANDING_TIMEOUT_MS, withBrandingTimeout } from '../server/user-branding/timeout.ts';
import { capturingLogger } from './helpers/log.ts';

const DEFAULT = '#17777a';

test('a source that never answers gives the default navbar after the timeout, with one warning', async () => {
  vi.useFakeTimers();
  onTestFinished(() => void vi.useRealTimers());
  const { logger, lines } = capturingLogger();
  const branding = withBrandingTimeout({ getBranding: () => new Promise(() => {}) }, BRANDING_TIMEOUT_MS, logger, [], DEFAULT);
  let answer: unknown = 'none yet';
  const asked = branding('ana').then((found) => (answer = found));
  await vi.advanceTimersByTimeAsync(BRANDING_TIMEOUT_MS - 1);
  expect(answer).toBe('none yet');
  await vi.advanceTimersByTimeAsync(1);
  expect(answer).toBeNull();
  await asked;
  expect(lines.filter((line) => line.includes('branding timed out'))).toHaveLength(1);
});

test('a source that fails gives the default navbar and says so', async () => {
  const { logger, lines } = capturingLogger();
  const branding = withBrandingTimeout({ getBranding: () => Promise.reject(new Error('down')) }, 1_000, logger, [], DEFAULT);
  expect(await branding('ana')).toBeNull();
  await new Promise((resolve) => setImmediate(resolve));
  expect(lines.some((line) => line.includes('branding failed'))).toBe(true);
});

test('an answer in time is sanitised: a hex colour is kept, anything else means the default navbar', async () => {
  const { logger } = capturingLogger();
  const answering = (color: string) =>
    withBrandingTimeout({ getBranding: async () => ({ color, logo: null }) }, 1_000, logger, [], DEFAULT);
  expect(await answering('#123456')('ana')).toEqual({ color: '#123456', logo: null });
  expect(await answering('red; background: url(x)')('ana')).toBeNull();
});
