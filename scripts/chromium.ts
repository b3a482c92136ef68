// Debian's Chromium (apt-get install -y chromium), never a downloaded browser, and the flags it
// runs with in the browser tests, the screenshots and Lighthouse: headless, no sandbox (root in
// CI), and nothing that reaches out to the network on its own (this machine has none).
import { existsSync } from 'node:fs';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Debian's build of the same Chromium's headless shell (apt-get install -y
 * chromium-headless-shell: Blink and V8 of the same version, without the browser's windows),
 * which Playwright itself runs for headless tests. A browser context costs it a third of the CPU
 * that a window of the full browser does (0.15 against 0.55 s here), and the browser tests open
 * one or more per test: test files took about a third less time. `/usr/bin/chromium` where it is missing,
 * or with `E2E_CHROMIUM=full` (docs/decisions/034-browser-tests-in-the-headless-shell.md).
 */
export const HEADLESS_SHELL_PATH = '/usr/bin/chromium-headless-shell';

/** The browser the e2e suite drives: the headless shell when installed, else the full Chromium. */
export function testBrowserPath(): string {
  return process.env.E2E_CHROMIUM !== 'full' && existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : CHROMIUM_PATH;
}

export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
