// Page transition 'page', mode out-in: during a client navigation the leaving page plays its exit
// (`.page-leave-active`) and only then the entering page is inserted and plays its entrance
// (`.page-enter-active`); prefers-reduced-motion swaps at once, with no animation phase.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setupSite, waitForHydration } from './fixture.ts';
import { scaled } from '../helpers/time-scale.ts';

type Snapshot = {
  /** performance.now() in the page. */
  t: number;
  phase: string | null;
  className: string;
  /** The h1 texts inside the transition wrapper at that moment. */
  h1: string[];
};

declare global {
  interface Window {
    __transitionLog?: Snapshot[];
  }
}

const HOME_H1 = 'The right expert for your next project, ready in days';

const site = setupSite();

/**
 * Records every change of `div.page-transition` (its phase attribute, its class, the page inside)
 * from now on: a MutationObserver callback runs right after each DOM commit, before the app's
 * next await resumes, so no phase goes unseen.
 */
async function recordTransition(page: Page): Promise<void> {
  await page.evaluate(() => {
    const wrapper = document.querySelector<HTMLElement>('div.page-transition');
    if (!wrapper) throw new Error('no div.page-transition');
    const log: Snapshot[] = [];
    window.__transitionLog = log;
    const snap = () =>
      log.push({
        t: performance.now(),
        phase: wrapper.getAttribute('data-transition-phase'),
        className: wrapper.className,
        h1: [...wrapper.querySelectorAll('h1')].map((h) => h.textContent ?? ''),
      });
    snap();
    new MutationObserver(snap).observe(wrapper, { attributes: true, childList: true, subtree: true, characterData: true });
  });
}

/** Clicks the navbar's Blog link on /en and waits until the blog page is shown and settled. */
async function navigateHomeToBlog(page: Page): Promise<Snapshot[]> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Blog', exact: true }).click();
  await page.waitForURL('**/en/blog');
  await page.waitForFunction(
    () => {
      const wrapper = document.querySelector('div.page-transition');
      return wrapper?.getAttribute('data-transition-phase') === 'idle' && wrapper.querySelector('h1')?.textContent === 'Blog';
    },
    undefined,
    { timeout: scaled(10_000) },
  );
  return page.evaluate(() => window.__transitionLog ?? []);
}

/** The phases in order, without repeats: e.g. ['idle', 'leave', 'enter', 'idle']. */
function phaseSequence(log: Snapshot[]): (string | null)[] {
  return log.map((s) => s.phase).filter((phase, i, all) => i === 0 || phase !== all[i - 1]);
}

describe("page transition 'page', out-in", () => {
  it('the leaving page finishes its exit before the new page enters: phases go leave → enter → idle', async () => {
    const page = await site.newPage();
    await page.goto('/en');
    await waitForHydration(page);
    expect(await page.locator('div.page-transition').getAttribute('data-transition-phase')).toBe('idle');
    await recordTransition(page);

    const log = await navigateHomeToBlog(page);
    const summary = log.map((s) => `${s.t.toFixed(0)} ${s.phase} [${s.className}] ${JSON.stringify(s.h1)}`).join('\n');

    expect(phaseSequence(log), summary).toEqual(['idle', 'leave', 'enter', 'idle']);
    // The phase classes are the ones named after the transition.
    expect(log.find((s) => s.phase === 'leave')?.className, summary).toContain('page-leave-active');
    expect(log.find((s) => s.phase === 'enter')?.className, summary).toContain('page-enter-active');

    // The old page is the one leaving: while the phase is `leave` only the old h1 is there.
    const leaving = log.filter((s) => s.phase === 'leave');
    expect(leaving.length, summary).toBeGreaterThan(0);
    for (const s of leaving) expect(s.h1, summary).toEqual([HOME_H1]);
    // Out-in: the two pages never coexist, and the new one never shows during `leave`.
    for (const s of log) expect(s.h1.length, summary).toBeLessThanOrEqual(1);

    // The old h1 disappears and the new one appears in the same swap, after the exit ran:
    // the leave animation lasts 150 ms, so the swap comes at least ~that long after it began.
    const leaveStart = leaving[0]!.t;
    const firstNew = log.find((s) => s.h1.includes('Blog'));
    const lastOld = log.filter((s) => s.h1.includes(HOME_H1)).at(-1);
    expect(firstNew, summary).toBeDefined();
    expect(lastOld, summary).toBeDefined();
    expect(firstNew!.t, summary).toBeGreaterThanOrEqual(lastOld!.t);
    expect(firstNew!.phase, summary).toBe('enter');
    expect(firstNew!.t - leaveStart, summary).toBeGreaterThanOrEqual(120);
  });

  it('with prefers-reduced-motion the page swaps at once, with no leave or enter phase', async () => {
    const page = await site.newPage({ reducedMotion: 'reduce' });
    await page.goto('/en');
    await waitForHydration(page);
    expect(await page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches)).toBe(true);
    await recordTransition(page);

    const log = await navigateHomeToBlog(page);
    const summary = log.map((s) => `${s.t.toFixed(0)} ${s.phase} [${s.className}] ${JSON.stringify(s.h1)}`).join('\n');

    expect(
      log.some((s) => s.h1.includes('Blog')),
      summary,
    ).toBe(true);
    expect(new Set(log.map((s) => s.phase)), summary).toEqual(new Set(['idle']));
    expect(
      log.some((s) => /page-(leave|enter)-active/.test(s.className)),
      summary,
    ).toBe(false);
  });
});
