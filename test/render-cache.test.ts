// React's markup is reused for boot data already rendered (server/render/render-cache.ts, docs/decisions/006)
// and opened session cookies are remembered (server/auth/session-cookie.ts). Both must be invisible:
// the same bytes as a fresh render, a fresh nonce each time, nobody's page handed to anybody else.
import request from 'supertest';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createUser } from '../server/users/users.ts';
import { createSessionCodec } from '../server/auth/session-cookie.ts';
import { createRenderCache, renderKey, splitBuffer } from '../server/render/render-cache.ts';
import { createTestApp, ORIGIN, TEST_SESSION_SECRET } from './helpers/app.ts';

const cspNonce = (res: request.Response) => /'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))![1]!;
const withoutNonces = (html: string) => html.replace(/nonce="[^"]+"/g, 'nonce=""');

describe('render cache (unit)', () => {
  test('markup is admitted the second time its key is seen, never the first', () => {
    const cache = createRenderCache({ maxBytes: 1000 });
    expect(cache.wants('a')).toBe(false);
    expect(cache.wants('a')).toBe(true);
    cache.set('a', Buffer.from('<p>a</p>'), 'N');
    expect(cache.get('a')?.parts.map(String)).toEqual(['<p>a</p>']);
    expect(cache.wants('a')).toBe(false);
  });

  test('the nonce is cut out of the markup so that each answer gets its own', () => {
    expect(splitBuffer(Buffer.from('x<script nonce="N1">y</script nonce="N1">z'), 'N1').map(String)).toEqual([
      'x<script nonce="',
      '">y</script nonce="',
      '">z',
    ]);
    expect(splitBuffer(Buffer.from('no nonce here'), 'N1').map(String)).toEqual(['no nonce here']);
  });

  test('bounded by bytes: the least recently used markup goes first, oversize markup is not kept', () => {
    const cache = createRenderCache({ maxBytes: 40 });
    cache.set('a', Buffer.alloc(10), '');
    cache.set('b', Buffer.alloc(10), '');
    cache.set('c', Buffer.alloc(10), '');
    expect(cache.get('a')).not.toBeNull(); // a is now the most recently used
    cache.set('d', Buffer.alloc(10), '');
    cache.set('e', Buffer.alloc(10), '');
    expect(cache.get('b')).toBeNull();
    expect(cache.get('a')).not.toBeNull();
    expect(cache.stats().bytes).toBeLessThanOrEqual(40);
    cache.set('huge', Buffer.alloc(11), ''); // more than a quarter of the whole
    expect(cache.get('huge')).toBeNull();
  });

  test('keys are digests of the boot data: different data, different keys', () => {
    expect(renderKey('{"a":1}')).toBe(renderKey('{"a":1}'));
    expect(renderKey('{"a":1}')).not.toBe(renderKey('{"a":2}'));
  });
});

describe('render cache (pages)', () => {
  const PAGES = ['/', '/en', '/en/blog', '/blog/web-accessibility-2026', '/en/privacy', '/en/login', '/en/does-not-exist'];

  test.each(PAGES)('%s from the cache is the very document a fresh render writes, with a fresh nonce', async (path) => {
    const { app, renderCache } = await createTestApp();
    const { app: uncached } = await createTestApp({ RENDER_CACHE_MB: '0' });
    const fresh = await request(uncached).get(path);
    const answers = [];
    // Uncompressed, to see the length the cached answer announces.
    for (let i = 0; i < 3; i++) answers.push(await request(app).get(path).set('Accept-Encoding', 'identity'));
    expect(renderCache!.stats().hits).toBe(1); // third answer
    for (const res of answers) {
      expect(res.status).toBe(fresh.status);
      expect(withoutNonces(res.text)).toBe(withoutNonces(fresh.text));
      const scripts = res.text.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag).toContain(`nonce="${cspNonce(res)}"`);
    }
    expect(new Set(answers.map(cspNonce)).size).toBe(3);
    expect(Number(answers[2]!.headers['content-length'])).toBe(Buffer.byteLength(answers[2]!.text));
  });

  test('a visitor who made a cookie choice never gets the banner cached for those who did not', async () => {
    const { app } = await createTestApp();
    for (let i = 0; i < 3; i++) expect((await request(app).get('/en')).text).toContain('class="cookie-banner"');
    const chosen = await request(app).get('/en').set('Cookie', 'cookie_consent=v1:analytics=0');
    expect(chosen.text).not.toContain('class="cookie-banner"');
  });

  test("a signed-in user's cached page is never served to another user", async () => {
    const { app, db } = await createTestApp();
    const cookieOf = async (userName: string) => {
      await createUser(db, { userName, password: 'correct horse battery', role: 'CLI', name: userName, lastName: 'Cached' });
      const res = await request(app)
        .post('/login')
        .set('Origin', ORIGIN)
        .type('form')
        .send({ identifier: userName, password: 'correct horse battery' });
      return ([] as string[])
        .concat(res.headers['set-cookie'] ?? [])
        .find((c) => c.startsWith('auth._token.local='))!
        .split(';')[0]!;
    };
    const carla = await cookieOf('carla');
    const claudia = await cookieOf('claudia');
    for (let i = 0; i < 3; i++)
      expect((await request(app).get('/en/client').set('Cookie', carla)).text).toContain('carla<!-- --> <!-- -->Cached');
    const other = await request(app).get('/en/client').set('Cookie', claudia);
    expect(other.text).toContain('claudia<!-- --> <!-- -->Cached');
    expect(other.text).not.toContain('carla');
    const signedOut = await request(app).get('/en');
    expect(signedOut.text).not.toContain('carla');
  });

  test('pages with a one-time form token (contact) do not fill the cache', async () => {
    const { app, renderCache } = await createTestApp();
    const tokens = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await request(app).get('/en/Contact');
      tokens.add(/name="formToken" value="([^"]+)"/.exec(res.text)?.[1] ?? '');
    }
    expect(tokens.size).toBe(3);
    expect(renderCache!.stats().entries).toBe(0);
  });

  test('RENDER_CACHE_MB=0 turns the cache off', async () => {
    const { app, renderCache } = await createTestApp({ RENDER_CACHE_MB: '0' });
    expect(renderCache).toBeUndefined();
    expect((await request(app).get('/en')).status).toBe(200);
  });
});

describe('opened session cookies', () => {
  const id = 'a'.repeat(43);
  afterEach(() => {
    vi.useRealTimers();
  });

  test('a cookie opened once opens to the same (frozen) session without decrypting again', async () => {
    const codec = createSessionCodec(TEST_SESSION_SECRET);
    const sealed = await codec.seal({ id, exp: Math.floor(Date.now() / 1000) + 600 });
    const first = await codec.unseal(sealed);
    expect(first?.id).toBe(id);
    expect(await codec.unseal(sealed)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });

  test('a remembered session still ends when it expires', async () => {
    const codec = createSessionCodec(TEST_SESSION_SECRET);
    const sealed = await codec.seal({ id, exp: Math.floor(Date.now() / 1000) + 60 });
    expect(await codec.unseal(sealed)).not.toBeNull();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 61_000);
    expect(await codec.unseal(sealed)).toBeNull();
  });

  test('a tampered cookie is still refused after the genuine one was opened', async () => {
    const codec = createSessionCodec(TEST_SESSION_SECRET);
    const sealed = await codec.seal({ id, exp: Math.floor(Date.now() / 1000) + 600 });
    await codec.unseal(sealed);
    const tampered = sealed.slice(0, -4) + (sealed.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect(await codec.unseal(tampered)).toBeNull();
  });
});
