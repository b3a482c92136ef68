import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App, messagesFor } from './app.tsx';
import { BOOT_ELEMENT_ID, type PageBoot } from './boot.ts';
import { loadPage } from './runtime/page-chunks.ts';
import { claimChunkReload, isChunkLoadError } from './runtime/chunk-reload.ts';
import { installFetchTracking } from './runtime/loading.ts';
// The design tokens first: every other stylesheet is written in them; then Montserrat and its
// metric-matched fallbacks (fonts.css sets --font-sans).
import './styles/tokens.css';
import './styles/fonts.css';
import './styles/app.css';
import './styles/projects.css';
import './styles/account.css';
import './styles/two-factor.css';
import './styles/preview.css';

const bootElement = document.getElementById(BOOT_ELEMENT_ID);
const root = document.getElementById('root');
if (!bootElement || !root) throw new Error('Server markup is missing #root or the boot data');
const boot = JSON.parse(bootElement.textContent ?? '') as PageBoot;

// (The server's inline script has marked <html class="js"> before the first paint, so that
// the burger menu starts folded without a layout shift.)
// Every request the client starts shows the spinner while in flight.
installFetchTracking();

async function start() {
  // The current page's chunk and the messages are already preloaded: resolve both before
  // hydrating so that hydration never suspends (no fallback flash, no mismatch).
  const [messages] = await Promise.all([
    messagesFor(boot.payload.locale, boot),
    boot.payload.state.kind === 'page' && loadPage(boot.payload.state.page),
  ]);
  hydrateRoot(
    root!,
    <StrictMode>
      <BrowserRouter>
        <App boot={{ ...boot, messages }} />
      </BrowserRouter>
    </StrictMode>,
  );
}

start().catch((error: unknown) => {
  // The server-rendered page stays usable without scripts; a missing chunk (a deploy removed
  // it) is worth one reload per minute.
  if (isChunkLoadError(error) && claimChunkReload()) window.location.reload();
  else console.info('The page could not start its scripts', error);
});

// A service worker at /sw.js with scope /, registered after the page has loaded
// (its own small chunk: no first-load cost).
void import('./sw/register.ts').then(
  (m) => m.registerServiceWorker(),
  () => undefined,
);
