// A user's branding never holds a page up: a source that hangs or fails gives the default navbar
// (null) within the timeout and one warning; what it answers in time is sanitised.
import { expect, test } from 'vitest';
import { withBrandingTimeout } from '../server/user-branding/timeout.ts';
import { capturingLogger } from './helpers/log.ts';

const DEFAULT = '#17777a';

test('a source that never answers gives the default navbar after the timeout, with one warning', async () => {
  const { logger, lines } = capturingLogger();
  const branding = withBrandingTimeout({ getBranding: () => new Promise(() => {}) }, 50, logger, [], DEFAULT);
  const started = performance.now();
  expect(await branding('ana')).toBeNull();
  expect(performance.now() - started).toBeLessThan(1_000);
  await new Promise((resolve) => setImmediate(resolve));
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
