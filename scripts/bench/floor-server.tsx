// The benchmark's floor: a bare Express 5 server that streams the app's real home page React
// tree with renderToPipeableStream, and nothing else. No helmet, no cookies, no session, no
// i18next, no compression, no request log, no route matching or guards, no data loading: the
// page data (the boot JSON, and the messages it names) and the document shell around React's stream
// are captured once from the running app's own /es answer (run.ts writes them to FLOOR_PAGE).
// Each request then does the work any server must do for this very page: render the same
// React tree (StrictMode > StaticRouter > App with the same boot data) and serialise the boot
// data for hydration (JSON.stringify plus one escaping pass), and writes the same bytes as the
// app, with the captured nonce. What it leaves out is the app's middleware and per-request
// set-up: the floor is what this page costs at the least with React streaming on Express 5.
//
// Node cannot run TSX natively: run.ts bundles this file with esbuild (packages external, like
// the app's server bundle) into bench-results/.floor/, then runs it with NODE_ENV=production.
import express from 'express';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { StrictMode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { App } from '../../client/app.tsx';
import type { PageBoot } from '../../client/boot.ts';
import type { Messages } from '../../shared/translate.ts';
import { loadPage } from '../../client/runtime/page-chunks.ts';
import { preloadDeferred } from '../../client/runtime/deferred.tsx';
import { jsonForScript } from '../../server/http/html.ts';

export type FloorPage = {
  /** The document up to and including `<div id="root">`. */
  head: string;
  /** From `</div>` after React's markup up to the boot script's opening tag, included. */
  bootOpen: string;
  /** From the boot script's `</script>` to the end of the document. */
  bootClose: string;
  /** The page's boot data (without the messages, as in the page)… */
  boot: PageBoot;
  /** …and the messages React renders with (the page loads them from their hashed URL). */
  messages: Messages;
  nonce: string;
};

const file = process.env.FLOOR_PAGE;
if (!file) throw new Error('FLOOR_PAGE (the captured page JSON) is required');
const page = JSON.parse(readFileSync(file, 'utf8')) as FloorPage;
if (page.boot.payload.state.kind === 'page') await loadPage(page.boot.payload.state.page);
// The shell's deferred parts (cookie banner, user menu) are rendered at once on the server: loaded first, as the app does.
await preloadDeferred();

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.get('/healthz', (_req, res) => {
  res.json({ status: 'ok' });
});
app.get('/', (_req, res) => {
  const stream = renderToPipeableStream(
    <StrictMode>
      <StaticRouter location={page.boot.payload.url}>
        <App boot={{ ...page.boot, messages: page.messages }} />
      </StaticRouter>
    </StrictMode>,
    {
      nonce: page.nonce,
      // As the app renders (server/render/render-page.tsx): finished sections in place.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onShellReady() {
        res.status(200).setHeader('Content-Type', 'text/html; charset=utf-8');
        res.write(page.head);
        const sink = new Writable({
          write(chunk: Buffer, _encoding, callback) {
            if (res.write(chunk)) callback();
            else res.once('drain', () => callback());
          },
          final(callback) {
            res.end(page.bootOpen + jsonForScript(page.boot) + page.bootClose);
            callback();
          },
        });
        stream.pipe(sink);
      },
      onShellError(error) {
        res.status(500).end(String(error));
      },
    },
  );
});

const port = Number(process.env.PORT ?? 3100);
const server = app.listen(port, process.env.HOST ?? '127.0.0.1', () => {
  console.log(JSON.stringify({ msg: 'floor listening', port }));
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
