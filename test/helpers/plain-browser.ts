// The tier below the browser (docs/decisions/047): the app's own server-rendered HTML, read as a
// document. `parsePage` turns an answer into a DOM (happy-dom, with no script, style sheet or
// frame loaded: what a browser without JavaScript shows, with the streamed sections in their
// place); Testing Library's queries (`within(document.body).getByRole(…)`) find in it what the
// browser tests found by role and name. `plainBrowser` is a visitor without JavaScript on the
// app in this process: it keeps cookies, follows redirects, follows links and submits forms as
// a browser builds them (the form's own fields, the button pressed, the Origin a browser sends).
import type { Express } from 'express';
import { Window } from 'happy-dom';
import request from 'supertest';
import { expect, onTestFinished } from 'vitest';
import { ORIGIN } from './app.ts';
import { revealStreamed } from './streamed-html.ts';

/** A page as a browser without JavaScript holds it. */
export type PlainPage = {
  status: number;
  /** The address shown after the redirects, e.g. https://www.example.test/en/login?next=… */
  url: URL;
  headers: Record<string, string>;
  /** The redirects that led here, first first (a form post answered 303 starts with the POST). */
  redirects: { method: string; url: string; status: number; location: string }[];
  html: string;
  document: Document;
};

/** The answer's HTML as a document (no script runs, nothing is fetched), streamed sections in place. */
export function parsePage(html: string, url: string | URL = ORIGIN): Document {
  const window = new Window({
    url: String(url),
    settings: {
      disableJavaScriptEvaluation: true,
      disableJavaScriptFileLoading: true,
      disableCSSFileLoading: true,
      disableIframePageLoading: true,
      navigation: { disableMainFrameNavigation: true, disableChildFrameNavigation: true, disableChildPageNavigation: true },
    },
  });
  window.document.write(revealStreamed(html));
  // A journey opens dozens of pages: each window is closed when the test ends.
  onTestFinished(() => window.happyDOM.close());
  return window.document as unknown as Document;
}

/** The visible text of an element, white space collapsed (what innerText reads, give or take CSS). */
export function textOf(element: Element | null | undefined): string {
  return (element?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** A file chosen in a file input, by the input's name. */
export type ChosenFile = { name: string; type: string; bytes: Buffer };

type Body = { type: 'form'; data: string } | { type: 'multipart'; fields: [string, string][]; files: [string, ChosenFile][] };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * A visitor whose browser runs no JavaScript, on `app`: every request goes through the whole
 * Express pipeline, as the built server answers it. `acceptLanguage` is the browser's language
 * (the browser tests' contexts are Spanish).
 */
export function plainBrowser(app: Express, options: { acceptLanguage?: string; userAgent?: string } = {}) {
  const jar = new Map<string, string>();
  /** Each cookie's Set-Cookie line as the site last sent it (its attributes: Max-Age, Path, SameSite…). */
  const lines = new Map<string, string>();
  const acceptLanguage = options.acceptLanguage ?? 'es-ES,es;q=0.9';

  function keepCookies(setCookie: string | string[] | undefined): void {
    for (const line of ([] as string[]).concat(setCookie ?? [])) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some(
        (a) => /^\s*max-age=(0|-)/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]!) < Date.now()),
      );
      if (expired || value === '') {
        jar.delete(name);
        lines.delete(name);
      } else {
        jar.set(name, value);
        lines.set(name, line);
      }
    }
  }

  async function send(method: 'GET' | 'POST', url: URL, body?: Body, referer?: URL): Promise<PlainPage> {
    let current = url;
    let currentMethod = method;
    let currentBody = body;
    const redirects: PlainPage['redirects'] = [];
    for (let hops = 0; hops < 10; hops++) {
      let req = request(app)[currentMethod === 'GET' ? 'get' : 'post'](current.pathname + current.search);
      req = req.set('Accept', 'text/html,application/xhtml+xml').set('Accept-Language', acceptLanguage);
      if (options.userAgent) req = req.set('User-Agent', options.userAgent);
      if (jar.size) req = req.set('Cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
      if (referer) req = req.set('Referer', referer.href);
      // A browser's form post names the page it came from.
      if (currentMethod === 'POST') req = req.set('Origin', ORIGIN);
      if (currentBody?.type === 'form') req = req.type('form').send(currentBody.data);
      if (currentBody?.type === 'multipart') {
        for (const [name, value] of currentBody.fields) req = req.field(name, value);
        for (const [name, file] of currentBody.files) req = req.attach(name, file.bytes, { filename: file.name, contentType: file.type });
      }
      const res = await req;
      keepCookies(res.headers['set-cookie']);
      const location = res.headers.location as string | undefined;
      if (REDIRECTS.has(res.status) && location) {
        redirects.push({ method: currentMethod, url: current.pathname + current.search, status: res.status, location });
        current = new URL(location, current);
        if (res.status !== 307 && res.status !== 308) {
          currentMethod = 'GET';
          currentBody = undefined;
        }
        continue;
      }
      const html = res.text ?? '';
      const isHtml = String(res.headers['content-type'] ?? '').startsWith('text/html');
      return {
        status: res.status,
        url: current,
        headers: res.headers as Record<string, string>,
        redirects,
        html,
        document: parsePage(isHtml ? html : '<!doctype html><html><body></body></html>', current),
      };
    }
    throw new Error(`More than 10 redirects from ${url.href}`);
  }

  const browser = {
    /** The cookies the site has set (name → value), as the browser keeps them. */
    cookies: jar,
    /** The Set-Cookie line of a cookie the browser keeps (undefined: none). */
    setCookieLine: (name: string): string | undefined => lines.get(name),
    /** Types an address (a path on the site) and goes there. */
    open(path: string): Promise<PlainPage> {
      return send('GET', new URL(path, ORIGIN));
    },
    /**
     * A GET of `path` with the browser's cookies, its redirect not followed, its body as bytes (a
     * document, a PDF, page data); cookies it sets are kept, as a browser's own request keeps them.
     */
    async get(path: string): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
      let req = request(app).get(path).buffer(true);
      if (options.userAgent) req = req.set('User-Agent', options.userAgent);
      if (jar.size) req = req.set('Cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
      const res = await req.parse((stream, done) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => done(null, Buffer.concat(chunks)));
      });
      keepCookies(res.headers['set-cookie']);
      return { status: res.status, headers: res.headers as Record<string, string>, body: res.body as Buffer };
    },
    /** Follows a link of `page`, as a click on it does without JavaScript. */
    follow(page: PlainPage, link: Element): Promise<PlainPage> {
      const href = link.getAttribute('href');
      expect(href, `the link “${textOf(link)}” has an href`).toBeTruthy();
      return send('GET', new URL(href!, page.url), undefined, page.url);
    },
    /**
     * Submits the form `submitter` belongs to (or `form` itself, as Enter in one of its fields
     * does): its fields as they are now in the document (set them first: `input.value = …`), the
     * submitter's own name and value, to the form's action with its method; `files` are the files
     * chosen in its file inputs, by name.
     */
    submit(
      page: PlainPage,
      target: HTMLFormElement | HTMLButtonElement | HTMLInputElement,
      files: Record<string, ChosenFile> = {},
    ): Promise<PlainPage> {
      const form =
        target instanceof page.document.defaultView!.HTMLFormElement ? (target as HTMLFormElement) : (target as HTMLButtonElement).form;
      expect(form, 'the button belongs to a form').toBeTruthy();
      const submitter = form === target ? null : (target as HTMLButtonElement);
      if (submitter) expect(submitter.disabled, `the button “${textOf(submitter)}” is enabled`).toBe(false);
      const FormDataOf = page.document.defaultView!.FormData as unknown as typeof FormData;
      // A file input's entry is the file chosen (`files`), not the empty one the document holds.
      const entries = [...new FormDataOf(form!, submitter ?? undefined).entries()]
        .filter(([, value]) => typeof value === 'string')
        .map(([name, value]) => [name, String(value)] as [string, string]);
      const action = new URL(submitter?.getAttribute('formaction') || form!.getAttribute('action') || page.url.href, page.url);
      const method = (submitter?.getAttribute('formmethod') || form!.getAttribute('method') || 'get').toUpperCase();
      if (method === 'GET') {
        action.search = new URLSearchParams(entries).toString();
        return send('GET', action, undefined, page.url);
      }
      const multipart = (form!.getAttribute('enctype') ?? '').toLowerCase() === 'multipart/form-data';
      const body: Body = multipart
        ? { type: 'multipart', fields: entries, files: Object.entries(files) }
        : { type: 'form', data: new URLSearchParams(entries).toString() };
      return send('POST', action, body, page.url);
    },
    /** Signs in through the login form (`loginPath`, /en/login by default) and answers the page it leads to. */
    async signIn(identifier: string, password: string, loginPath = '/en/login'): Promise<PlainPage> {
      const login = await browser.open(loginPath);
      const form = login.document.querySelector<HTMLFormElement>('main form')!;
      form.querySelector<HTMLInputElement>('#login-identifier')!.value = identifier;
      form.querySelector<HTMLInputElement>('#login-password')!.value = password;
      const page = await browser.submit(login, form.querySelector<HTMLButtonElement>('button[type="submit"]')!);
      expect(page.url.pathname, `${identifier} is signed in`).not.toMatch(/\/login$/);
      return page;
    },
  };
  return browser;
}

export type PlainBrowser = ReturnType<typeof plainBrowser>;
