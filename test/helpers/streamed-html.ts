// A streamed page as the browser shows it: React writes a late section after the shell, in a
// hidden holder (`<div hidden id="S:n">`), and a script (`$RC("B:m","S:n")`) moves it in place
// of its fallback (`<!--$?--><template id="B:m"></template>…<!--/$-->`). Tests that look at
// the page's structure read it with the moves done, as a browser with JavaScript sees it.

/** The end of the element that starts at `start` (a `<div`), its closing tag included. */
function elementEnd(html: string, start: number): number {
  const tags = /<div\b|<\/div>/g;
  tags.lastIndex = start;
  let depth = 0;
  for (let match = tags.exec(html); match; match = tags.exec(html)) {
    depth += match[0] === '</div>' ? -1 : 1;
    if (depth === 0) return match.index + '</div>'.length;
  }
  throw new Error('An unclosed <div> in the streamed page');
}

/** The streamed sections' ids, as React's moves pair them: fallback B:m ← holder S:n. */
export function streamedMoves(html: string): [boundary: string, segment: string][] {
  return [...html.matchAll(/\$RC\("(B:[0-9a-z]+)","(S:[0-9a-z]+)"\)/g)].map((m) => [m[1]!, m[2]!]);
}

/** The page with every streamed section in its place (and no holder or fallback left). */
export function revealStreamed(html: string): string {
  let page = html;
  for (const [boundary, segment] of streamedMoves(html)) {
    const holderStart = page.indexOf(`<div hidden id="${segment}">`);
    if (holderStart === -1) throw new Error(`No holder ${segment} in the streamed page`);
    const holderEnd = elementEnd(page, holderStart);
    const content = page.slice(page.indexOf('>', holderStart) + 1, holderEnd - '</div>'.length);
    page = page.slice(0, holderStart) + page.slice(holderEnd);
    const fallbackStart = page.indexOf(`<template id="${boundary}"></template>`);
    const fallbackEnd = page.indexOf('<!--/$-->', fallbackStart);
    if (fallbackStart === -1 || fallbackEnd === -1) throw new Error(`No fallback ${boundary} in the streamed page`);
    page = page.slice(0, fallbackStart) + content + page.slice(fallbackEnd);
  }
  return page;
}
