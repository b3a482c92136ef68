// Client navigations ask the server what a URL shows (/_data runs the same matching, guards
// and loaders as a full page load), then load the page's chunk before showing it.
import type { DataResponse } from '../shared/page-data.ts';

export async function fetchPageData(url: string, signal: AbortSignal): Promise<DataResponse> {
  const response = await fetch(`/_data?path=${encodeURIComponent(url)}`, {
    signal,
    headers: { Accept: 'application/json' },
    credentials: 'same-origin',
  });
  if (!response.ok) throw new Error(`Page data for ${url} answered ${response.status}`);
  return (await response.json()) as DataResponse;
}
