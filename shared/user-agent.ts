// The device of a session as a person recognises it ("Chrome on Android"), read from the
// browser's User-Agent header. Small on purpose: the common browsers and systems by the tokens
// they have sent for years, in the order that tells them apart (Edge and Opera also say
// "Chrome", Chrome also says "Safari", Android also says "Linux"); anything else is unknown
// rather than guessed. Pure: the server reads it, the profile page shows it.

export const BROWSERS = ['Edge', 'Opera', 'Samsung Internet', 'Firefox', 'Chrome', 'Safari'] as const;
export const SYSTEMS = ['Android', 'iOS', 'ChromeOS', 'Windows', 'macOS', 'Linux'] as const;

export type Browser = (typeof BROWSERS)[number];
export type OperatingSystem = (typeof SYSTEMS)[number];
export type Device = { browser: Browser | null; os: OperatingSystem | null };

const BROWSER_TOKENS: readonly [RegExp, Browser][] = [
  [/\b(?:Edg|EdgA|EdgiOS|Edge)\//, 'Edge'],
  [/\b(?:OPR|OPiOS|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:Chrome|HeadlessChrome|CriOS|Chromium)\//, 'Chrome'],
  // Safari names its version in Version/…; other WebKit shells (in-app views) do not.
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEM_TOKENS: readonly [RegExp, OperatingSystem][] = [
  [/\bAndroid\b/, 'Android'],
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/** The browser and system a User-Agent names; null for each it does not name clearly. */
export function deviceOf(userAgent: string | null | undefined): Device {
  const ua = (userAgent ?? '').slice(0, 500);
  return {
    browser: BROWSER_TOKENS.find(([token]) => token.test(ua))?.[1] ?? null,
    os: SYSTEM_TOKENS.find(([token]) => token.test(ua))?.[1] ?? null,
  };
}
