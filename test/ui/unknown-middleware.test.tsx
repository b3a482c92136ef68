// @vitest-environment happy-dom
// 'Unknown middleware {name}' (500, docs/specification.md §5.7) after a link click reads as it does on a full
// load (test/error-page.test.ts): the client app rendered by Testing Library on happy-dom
// (docs/decisions/047), its /_data answered by the real server in this process. No page is
// server-rendered here: React's server renderer in the same process would share the client's
// contexts.
import { render, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import request from 'supertest';
import { expect, onTestFinished, test, vi } from 'vitest';
import { App } from '../../client/app.tsx';
import type { BootData } from '../../client/boot.ts';
import { loadPage } from '../../client/runtime/page-chunks.ts';
import { LOCALE_CODES } from '../../shared/locales.ts';
import type { PagePayload } from '../../shared/page-data.ts';
import { createTestApp, ORIGIN } from '../helpers/app.ts';
import { MESSAGES, pageBrand } from '../helpers/render-ui.tsx';
import { textOf } from '../helpers/plain-browser.ts';
import { scaled } from '../helpers/time-scale.ts';
import { UNKNOWN_GUARD_CASES, withUnknownGuard } from '../helpers/unknown-guard.ts';

type TestApp = Awaited<ReturnType<typeof createTestApp>>['app'];

/** Where the boot data says each locale's messages are. */
const MESSAGE_URLS = Object.fromEntries(LOCALE_CODES.map((code) => [code, `/messages/${code}.json`])) as BootData['messageUrls'];

/**
 * The browser's fetch: a page's data from the app in this process (/_data), the messages from
 * their files; nothing else is asked for (a page render here would share React's contexts with
 * the client's).
 */
function fetchFromApp(app: TestApp): void {
  vi.stubGlobal('fetch', async (input: string | URL | Request) => {
    const url = new URL(input instanceof Request ? input.url : String(input), ORIGIN);
    const locale = LOCALE_CODES.find((code) => MESSAGE_URLS[code] === url.pathname);
    if (locale) return Response.json(MESSAGES[locale]);
    if (url.pathname !== '/_data') throw new Error(`Unexpected fetch ${url.href}`);
    const answer = await request(app)
      .get(url.pathname + url.search)
      .set('Accept', 'application/json');
    return Response.json(answer.body, { status: answer.status });
  });
  onTestFinished(() => {
    vi.unstubAllGlobals();
  });
}

/** The page data /_data gives for `path`, as the boot script carries it on a page load. */
async function pageData(app: TestApp, path: string): Promise<PagePayload> {
  const answer = await request(app).get('/_data').query({ path });
  return (answer.body as { payload: PagePayload }).payload;
}

test.each(UNKNOWN_GUARD_CASES)(
  "a guard no one defined shows the 500 page '$message' after a link click from $from to $to, not a bare 'Error'",
  async ({ locale, from, to, route, message }) => {
    const { app } = await createTestApp();
    withUnknownGuard(route, 'isMagic');

    fetchFromApp(app);
    const payload = await pageData(app, from);
    if (payload.state.kind === 'page') await loadPage(payload.state.page);
    const boot: BootData = {
      payload,
      messages: MESSAGES[locale],
      messageUrls: MESSAGE_URLS,
      siteName: 'the product',
      brand: pageBrand(),
      consent: { current: { analytics: false }, analyticsConfigured: false },
      localeCookie: false,
    };
    const user = userEvent.setup();
    const { container, unmount } = render(
      <MemoryRouter initialEntries={[from]}>
        <App boot={boot} />
      </MemoryRouter>,
    );
    onTestFinished(unmount);
    const blogLink = within(container.querySelector('header.navbar')!).getAllByRole('link', { name: 'Blog' })[0]!;
    expect(blogLink.getAttribute('href')).toBe(to);
    await user.click(blogLink);
    // The page shows once /_data has answered, 200 ms at the least (docs/specification.md §10.4).
    await waitFor(() => expect(textOf(container.querySelector('main .error-status'))).toBe('500'), { timeout: scaled(5_000) });
    expect(textOf(container.querySelector('main h1'))).toBe(message);
  },
);
