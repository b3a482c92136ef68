// A session's device, read from its User-Agent: the common browsers and systems told apart in
// the order that matters, anything else unknown rather than guessed.
import { expect, test } from 'vitest';
import { deviceLabel } from '../shared/account.ts';
import { translatorFor } from '../client/translations.tsx';
import { deviceOf, type Device } from '../shared/user-agent.ts';
import en from '../locales/en/common.json' with { type: 'json' };
import es from '../locales/es/common.json' with { type: 'json' };

const AGENTS: [string, string, Device][] = [
  [
    'Chrome on Android',
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
    { browser: 'Chrome', os: 'Android' },
  ],
  [
    'Firefox on Windows',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0',
    { browser: 'Firefox', os: 'Windows' },
  ],
  [
    'Safari on iOS',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    { browser: 'Safari', os: 'iOS' },
  ],
  [
    'Safari on macOS',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
    { browser: 'Safari', os: 'macOS' },
  ],
  [
    'Edge on Windows (it also says Chrome and Safari)',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.68',
    { browser: 'Edge', os: 'Windows' },
  ],
  [
    'Opera on Linux (it also says Chrome)',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36 OPR/111.0.0.0',
    { browser: 'Opera', os: 'Linux' },
  ],
  [
    'Samsung Internet on Android',
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
    { browser: 'Samsung Internet', os: 'Android' },
  ],
  [
    'Chrome on iOS (CriOS)',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
    { browser: 'Chrome', os: 'iOS' },
  ],
  [
    'Firefox on iOS (FxiOS)',
    'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/127.0 Mobile/15E148 Safari/605.1.15',
    { browser: 'Firefox', os: 'iOS' },
  ],
  [
    'Chrome on ChromeOS (it also says Linux)',
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
    { browser: 'Chrome', os: 'ChromeOS' },
  ],
  [
    'headless Chrome on Linux (a browser test)',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36',
    { browser: 'Chrome', os: 'Linux' },
  ],
  [
    'Firefox on Linux',
    'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
    { browser: 'Firefox', os: 'Linux' },
  ],
  [
    'an in-app WebView on iOS: the system only',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
    { browser: null, os: 'iOS' },
  ],
  ['curl: unknown', 'curl/8.5.0', { browser: null, os: null }],
  ['a test client: unknown', 'node-superagent/3.8.3', { browser: null, os: null }],
  ['no header at all: unknown', '', { browser: null, os: null }],
];

test.each(AGENTS)('the device of %s', (_name, userAgent, device) => {
  expect(deviceOf(userAgent)).toEqual(device);
});

test('a missing user agent is an unknown device', () => {
  expect(deviceOf(null)).toEqual({ browser: null, os: null });
  expect(deviceOf(undefined)).toEqual({ browser: null, os: null });
});

const LABELS: [Device, string, string][] = [
  [{ browser: 'Chrome', os: 'Android' }, 'Chrome on Android', 'Chrome en Android'],
  [{ browser: 'Firefox', os: null }, 'Firefox', 'Firefox'],
  [{ browser: null, os: 'iOS' }, 'A browser on iOS', 'Navegador en iOS'],
  [{ browser: null, os: null }, 'Unknown device', 'Dispositivo desconocido'],
];

test.each(LABELS)('the device %o reads "%s" in English and "%s" in Spanish', (device, english, spanish) => {
  expect(deviceLabel(translatorFor('en', en), device)).toBe(english);
  expect(deviceLabel(translatorFor('es', es), device)).toBe(spanish);
});
