// `npm run lighthouse`: Lighthouse (the npm package) against the production build, in Debian's
// Chromium (/usr/bin/chromium: never a downloaded browser), offline: only 127.0.0.1 is loaded.
//
// Builds, starts dist/server/main.js (NODE_ENV=production, a temporary DATA_DIR), then audits
// the home page, the blog, the contact page and a post (Spanish: /, /blog, /Contact,
// /blog/how-to-brief-an-expert) with the mobile (Lighthouse's default) and desktop presets. Prints the four category scores per page and
// form factor with PASS/FAIL against the targets (performance ≥ 95; accessibility, best
// practices and SEO = 100), the failing audits of any category below its target, and writes
// bench-results/lighthouse-latest.json (full reports in bench-results/lighthouse/).
//
// Each run starts from clean storage, so the cookie banner shows as on a first visit.
// LIGHTHOUSE_COMPARE_CONSENT=1 runs everything a second time with the consent cookie set (no
// banner), to tell what the banner costs. LIGHTHOUSE_RUNS (3): audits per page and form factor,
// the median (by performance score) reported. LIGHTHOUSE_NO_BUILD=1 reuses dist/.
// LIGHTHOUSE_CHROME overrides the browser path. LIGHTHOUSE_PAGES=contact,post audits only those.
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Config, type Flags } from 'lighthouse';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  APP_SERVER,
  buildApp,
  cleanup,
  installCleanup,
  makeTempDir,
  RESULTS,
  startServer,
  stopProcess,
  type Started,
} from './bench/harness.ts';
import { CONSENT_COOKIE, serializeConsent } from '../shared/consent.ts';

const CHROME = process.env.LIGHTHOUSE_CHROME ?? CHROMIUM_PATH;
const CHROME_FLAGS = [
  ...CHROMIUM_ARGS,
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-domain-reliability',
  '--disable-client-side-phishing-detection',
  '--no-pings',
  // A Spanish browser: the bare root answers Spanish instead of redirecting to /en.
  '--lang=es-ES',
  '--accept-lang=es-ES,es',
];

const ALL_PAGES = [
  { name: 'home', path: '/' },
  { name: 'blog', path: '/blog' },
  { name: 'contact', path: '/Contact' },
  // A post: its social tags, JSON-LD and feed links in the audited head.
  { name: 'post', path: '/blog/how-to-brief-an-expert' },
] as const;
const ONLY = (process.env.LIGHTHOUSE_PAGES ?? '').split(',').filter(Boolean);
const PAGES = ONLY.length ? ALL_PAGES.filter((p) => ONLY.includes(p.name)) : ALL_PAGES;
if (PAGES.length === 0) throw new Error(`LIGHTHOUSE_PAGES names no page of ${ALL_PAGES.map((p) => p.name).join(', ')}`);
const FORM_FACTORS = ['mobile', 'desktop'] as const;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];
const TARGETS: Record<Category, number> = { performance: 95, accessibility: 100, 'best-practices': 100, seo: 100 };
const METRICS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
  'interactive',
] as const;

type FailingAudit = { id: string; title: string; score: number | null; displayValue?: string; weight: number };
export type LighthouseRun = {
  page: string;
  path: string;
  formFactor: (typeof FORM_FACTORS)[number];
  consentCookie: boolean;
  scores: Record<Category, number | null>;
  pass: boolean;
  metrics: Record<string, { value: number | null; display: string | null }>;
  failing: Partial<Record<Category, FailingAudit[]>>;
  /** The performance score of every run (RUNS of them); the median run is the one reported. */
  performanceScores: (number | null)[];
  /** Lighthouse's measure of this machine's speed at the time (lower: slower or busier). */
  benchmarkIndex: number;
  runWarnings: string[];
  runtimeError?: string;
  report: string;
};

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));

function scoresOf(lhr: Lhr): Record<Category, number | null> {
  return Object.fromEntries(
    CATEGORIES.map((c) => [c, lhr.categories[c]?.score == null ? null : Math.round(lhr.categories[c].score * 100)]),
  ) as Record<Category, number | null>;
}

function failingAudits(lhr: Lhr, category: Category): FailingAudit[] {
  const refs = lhr.categories[category]?.auditRefs ?? [];
  const failing: FailingAudit[] = [];
  for (const ref of refs) {
    const audit = lhr.audits[ref.id];
    if (!audit) continue;
    if (['notApplicable', 'manual', 'informative'].includes(audit.scoreDisplayMode)) continue;
    if (lhr.runtimeError) break;
    // Performance: the metrics below their best score, and the insights that flag something.
    if (audit.score === null ? audit.scoreDisplayMode === 'error' : audit.score < (category === 'performance' ? 0.9 : 1)) {
      failing.push({
        id: ref.id,
        title: audit.title,
        score: audit.score,
        weight: ref.weight,
        ...(audit.displayValue ? { displayValue: audit.displayValue } : {}),
      });
    }
  }
  return failing.sort((a, b) => b.weight - a.weight);
}

async function audit(port: number, url: string, formFactor: LighthouseRun['formFactor'], consentCookie: boolean): Promise<Lhr> {
  const flags: Flags = {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
    ...(consentCookie ? { extraHeaders: { Cookie: `${CONSENT_COOKIE}=${serializeConsent({ analytics: false })}` } } : {}),
  };
  const config: Config | undefined = formFactor === 'desktop' ? desktopConfig : undefined;
  const result = await lighthouse(url, flags, config);
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  return result.lhr;
}

const pad = (value: string, width: number) => value.padStart(width);

/** Stops with the server's last log lines when it no longer answers (an audit would only show Chrome's error page). */
async function assertAlive(app: Started): Promise<void> {
  const ok = await fetch(`${app.base}/healthz`, { signal: AbortSignal.timeout(5000) }).then(
    (res) => res.ok,
    () => false,
  );
  if (ok) return;
  const state =
    app.child.exitCode !== null || app.child.signalCode !== null
      ? `exited (${app.child.exitCode ?? app.child.signalCode})`
      : 'not answering';
  throw new Error(`The app server is ${state}; its log ends with:\n${readFileSync(app.logFile, 'utf8').slice(-3000)}`);
}

async function main() {
  installCleanup();
  if (!existsSync(CHROME)) throw new Error(`No browser at ${CHROME} (apt-get install chromium, or set LIGHTHOUSE_CHROME)`);
  if (process.env.LIGHTHOUSE_NO_BUILD === '1' && existsSync(APP_SERVER)) console.log('LIGHTHOUSE_NO_BUILD=1: using the existing dist/');
  else buildApp();

  const tempDir = makeTempDir('lighthouse-');
  const app = await startServer(
    'app',
    APP_SERVER,
    {
      NODE_ENV: 'production',
      WEB_CONCURRENCY: '1',
      LOG_LEVEL: 'warn',
      DATA_DIR: join(tempDir, 'data'),
      SESSION_SECRET: randomBytes(32).toString('base64url'),
    },
    tempDir,
    { pin: false },
  );
  console.log(`app on ${app.base} (production build); browser ${CHROME}`);

  const chrome = await chromeLauncher.launch({
    chromePath: CHROME,
    chromeFlags: CHROME_FLAGS,
    userDataDir: mkdirSync(join(tempDir, 'chrome-profile'), { recursive: true }) ?? join(tempDir, 'chrome-profile'),
    logLevel: 'silent',
    handleSIGINT: false,
  });
  const reportDir = join(RESULTS, 'lighthouse');
  mkdirSync(reportDir, { recursive: true });

  const runs: LighthouseRun[] = [];
  const passes = process.env.LIGHTHOUSE_COMPARE_CONSENT === '1' ? [false, true] : [false];
  try {
    for (const consentCookie of passes) {
      for (const page of PAGES) {
        for (const formFactor of FORM_FACTORS) {
          const url = app.base + page.path;
          process.stdout.write(`  ${page.name} ${formFactor}${consentCookie ? ' (consent cookie: no banner)' : ''} … `);
          // RUNS audits, the one with the median performance score kept (scores vary with the
          // machine's load: mobile simulates a 4× slower CPU from the measured task times).
          const tries: { lhr: Lhr; scores: Record<Category, number | null> }[] = [];
          for (let n = 0; n < RUNS; n++) {
            await assertAlive(app);
            let one = await audit(chrome.port, url, formFactor, consentCookie);
            // A failed trace (NO_NAVSTART and the like) happens now and then: once more.
            if (one.runtimeError) one = await audit(chrome.port, url, formFactor, consentCookie);
            if (one.finalDisplayedUrl !== url) one.runWarnings.push(`${url} ended at ${one.finalDisplayedUrl}`);
            tries.push({ lhr: one, scores: scoresOf(one) });
          }
          // Failed runs only when every run failed; then the median by performance score.
          const good = tries.filter((t) => !t.lhr.runtimeError);
          const pool = (good.length ? good : tries).sort((a, b) => (a.scores.performance ?? -1) - (b.scores.performance ?? -1));
          const { lhr, scores } = pool[Math.floor((pool.length - 1) / 2)]!;
          const failing: LighthouseRun['failing'] = {};
          for (const c of CATEGORIES) if ((scores[c] ?? 0) < TARGETS[c]) failing[c] = failingAudits(lhr, c);
          const report = join(reportDir, `${page.name}-${formFactor}${consentCookie ? '-consent' : ''}.json`);
          writeFileSync(report, JSON.stringify(lhr));
          const run: LighthouseRun = {
            page: page.name,
            path: page.path,
            formFactor,
            consentCookie,
            scores,
            pass: CATEGORIES.every((c) => (scores[c] ?? 0) >= TARGETS[c]),
            metrics: Object.fromEntries(
              METRICS.map((m) => [m, { value: lhr.audits[m]?.numericValue ?? null, display: lhr.audits[m]?.displayValue ?? null }]),
            ),
            failing,
            performanceScores: tries.map((t) => t.scores.performance),
            benchmarkIndex: lhr.environment.benchmarkIndex,
            runWarnings: lhr.runWarnings.map(String),
            ...(lhr.runtimeError ? { runtimeError: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` } : {}),
            report: report.slice(RESULTS.length - 'bench-results'.length),
          };
          runs.push(run);
          console.log(
            CATEGORIES.map((c) => `${c} ${scores[c] ?? '-'}`).join(', ') +
              (RUNS > 1 ? ` (performance of the ${RUNS} runs: ${run.performanceScores.join(', ')}; median kept)` : ''),
          );
        }
      }
    }
  } finally {
    chrome.kill();
    await stopProcess(app.child);
    copyFileSync(app.logFile, join(reportDir, 'server.log'));
  }

  // The table, the failing audits, the file.
  console.log(
    `\n${'page'.padEnd(10)}${'form'.padEnd(9)}${'banner'.padEnd(8)}${pad('perf', 6)}${pad('a11y', 6)}${pad('bp', 6)}${pad('seo', 6)}  FCP / LCP / TBT / CLS (benchmark index)`,
  );
  for (const run of runs) {
    const s = run.scores;
    const m = run.metrics;
    console.log(
      `${run.page.padEnd(10)}${run.formFactor.padEnd(9)}${(run.consentCookie ? 'no' : 'yes').padEnd(8)}` +
        `${pad(String(s.performance ?? '-'), 6)}${pad(String(s.accessibility ?? '-'), 6)}${pad(String(s['best-practices'] ?? '-'), 6)}${pad(String(s.seo ?? '-'), 6)}` +
        `  ${m['first-contentful-paint']?.display} / ${m['largest-contentful-paint']?.display} / ${m['total-blocking-time']?.display} / ${m['cumulative-layout-shift']?.display} (${Math.round(run.benchmarkIndex)})` +
        `  ${run.pass ? 'PASS' : 'FAIL'}`,
    );
  }
  console.log('\ntargets: performance ≥ 95, accessibility = 100, best practices = 100, SEO = 100');
  for (const run of runs.filter((r) => !r.pass)) {
    console.log(`\n${run.page} ${run.formFactor}${run.consentCookie ? ' (consent cookie)' : ''}:`);
    for (const [category, audits] of Object.entries(run.failing)) {
      console.log(`  ${category} ${run.scores[category as Category]} (target ${TARGETS[category as Category]}):`);
      for (const a of audits)
        console.log(
          `    - ${a.id}: ${a.title}${a.displayValue ? ` (${a.displayValue})` : ''}${a.score === null ? '' : ` [score ${a.score}]`}`,
        );
    }
  }
  const warnings = [...new Set(runs.flatMap((r) => r.runWarnings))];
  if (warnings.length) console.log(`\nLighthouse warnings:\n${warnings.map((w) => `  - ${w}`).join('\n')}`);
  const errors = runs.filter((r) => r.runtimeError);
  for (const r of errors) console.log(`runtime error on ${r.page} ${r.formFactor}: ${r.runtimeError}`);

  const output = {
    at: new Date().toISOString(),
    lighthouse: (await import('lighthouse/package.json', { with: { type: 'json' } })).default.version as string,
    chrome: CHROME,
    targets: TARGETS,
    runs,
    pass: runs.every((r) => r.pass),
  };
  writeFileSync(join(RESULTS, 'lighthouse-latest.json'), JSON.stringify(output, null, 2));
  console.log(`\nresults: bench-results/lighthouse-latest.json (full reports: bench-results/lighthouse/)`);
  cleanup();
  if (process.env.LIGHTHOUSE_STRICT === '1' && !output.pass) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  cleanup();
  process.exitCode = 1;
});
