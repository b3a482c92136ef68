// Debian's Chromium (apt-get install -y chromium), never a downloaded browser, and the flags it
// runs with in the browser tests, the screenshots and Lighthouse: headless, no sandbox (root in
// CI), and nothing that reaches out to the network on its own (this machine has none).
export const CHROMIUM_PATH = '/usr/bin/chromium';

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
