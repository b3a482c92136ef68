// The browser tests drive Debian's headless shell when it is installed, the full Chromium
// otherwise or when asked (docs/decisions/034-browser-tests-in-the-headless-shell.md).
import { existsSync } from 'node:fs';
import { afterEach, expect, test, vi } from 'vitest';
import { CHROMIUM_PATH, HEADLESS_SHELL_PATH, testBrowserPath } from '../scripts/chromium.ts';

afterEach(() => {
  vi.unstubAllEnvs();
});

test('the browser tests run in the headless shell when it is installed, else in /usr/bin/chromium', () => {
  vi.stubEnv('E2E_CHROMIUM', undefined);
  expect(testBrowserPath()).toBe(existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : CHROMIUM_PATH);
});

test('E2E_CHROMIUM=full runs them in /usr/bin/chromium whatever is installed', () => {
  vi.stubEnv('E2E_CHROMIUM', 'full');
  expect(testBrowserPath()).toBe(CHROMIUM_PATH);
});
