// The documentation as a newcomer reads it: a README short enough to read (its map leads to the
// rest), every relative link of README.md, CONTRIBUTING.md and docs/*.md leading to a file of the
// repository (and, into a Markdown file, to one of its headings), and no document naming a file
// that lives outside the repository. The decision records (docs/decisions/) are history: not
// checked here.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from '../scripts/build-state.ts';

const README_MAX_LINES = 200;

/** Written by someone else and linked before it exists: a link to it is skipped while it is absent. */
const COMING = ['docs/specification.md'];

/**
 * Files outside the repository that earlier documents named: the folder beside the repository
 * (`../shared/…` from its root; `../../shared/page-data.ts` in a code example is the repository's
 * own shared/ seen from client/pages/) and what it held.
 */
const OUTSIDE_NAMES: [name: string, pattern: RegExp][] = [
  ['../shared', /(?<![./])\.\.\/shared\b/],
  ['seed-spec.md', /seed-spec\.md/],
  ['DESIGN.md', /DESIGN\.md/],
  ['STYLE.md', /STYLE\.md/],
];

const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

function read(doc: string): string {
  return readFileSync(join(ROOT, doc), 'utf8');
}

/** The text outside fenced code blocks and inline code, where a link is a link. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The targets of a document's inline links and images: `[text](target)`, `![alt](target "title")`. */
function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!);
}

/** GitHub's anchor of a heading: lower case, punctuation and symbols dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings (a repeated heading gets -1, -2…). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(heading!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** What is wrong with one link of `doc`, or null. */
function linkProblem(doc: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // https:, mailto: — not a file of ours
  const [path = '', anchor] = target.split('#', 2);
  const file = path === '' ? join(ROOT, doc) : resolve(ROOT, dirname(doc), decodeURIComponent(path));
  const inRepo = relative(ROOT, file);
  if (inRepo.startsWith('..') || inRepo.startsWith(sep)) return `${target} leaves the repository`;
  if (!existsSync(file)) return COMING.includes(inRepo.split(sep).join('/')) ? null : `${target}: no such file`;
  if (anchor && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) {
    return `${target}: no heading with the anchor #${anchor}`;
  }
  return null;
}

test(`the README has at most ${README_MAX_LINES} lines: the rest is in the documents its map links to`, () => {
  expect(read('README.md').split('\n').length).toBeLessThanOrEqual(README_MAX_LINES);
});

test('the documents checked are the README, CONTRIBUTING.md and every docs/*.md', () => {
  expect(DOCS).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/operating.md', 'docs/architecture.md']));
});

test.each(DOCS)('%s: every relative link leads to a file of the repository (and to a heading of it)', (doc) => {
  const problems = linkTargets(read(doc))
    .map((target) => linkProblem(doc, target))
    .filter((problem) => problem !== null);
  expect(problems).toEqual([]);
});

test.each(DOCS)('%s names no file outside the repository', (doc) => {
  const text = read(doc);
  expect(OUTSIDE_NAMES.filter(([, pattern]) => pattern.test(text)).map(([name]) => name)).toEqual([]);
});

test('the README links the five first questions: run it, go live, add a page, an API endpoint, a locale', () => {
  const targets = linkTargets(read('README.md'));
  for (const target of [
    'docs/operating.md#running-it',
    'docs/operating.md#before-you-go-live',
    'docs/architecture.md#add-a-page',
    'docs/architecture.md#add-an-api-endpoint',
    'docs/architecture.md#add-a-third-locale',
  ]) {
    expect(targets, target).toContain(target);
  }
});

test('the link checker finds a missing file, a missing heading and a way out of the repository', () => {
  expect(linkProblem('README.md', 'docs/nothing-here.md')).toMatch(/no such file/);
  expect(linkProblem('README.md', 'docs/operating.md#no-such-heading')).toMatch(/no heading/);
  expect(linkProblem('docs/operating.md', '../../shared/seed-spec.md')).toMatch(/leaves the repository/);
  expect(linkProblem('README.md', 'https://example.com/')).toBeNull();
  expect(linkTargets('see `[not](a-link.md)` and\n```\n[nor](this.md)\n```\nbut [this](that.md)')).toEqual(['that.md']);
  expect(slug('The brand: identity in one place')).toBe('the-brand-identity-in-one-place');
  expect(slug('At 100× the data')).toBe('at-100-the-data');
  const named = (text: string) => OUTSIDE_NAMES.filter(([, pattern]) => pattern.test(text)).map(([name]) => name);
  expect(named('The specification is `../shared/seed-spec.md`, the design `../shared/DESIGN.md`.')).toEqual([
    '../shared',
    'seed-spec.md',
    'DESIGN.md',
  ]);
  expect(named("import type { LoaderData } from '../../shared/page-data.ts';")).toEqual([]);
});

test('the README says how to sign in the first time, with the demo accounts and password the seed script makes', () => {
  const readme = read('README.md');
  const seed = read('scripts/seed-demo.ts');
  const password = /const PASSWORD = '([^']+)'/.exec(seed)?.[1];
  expect(password).toBeTruthy();
  expect(readme).toContain('npm run seed:demo');
  expect(readme).toContain(`\`${password}\``);
  for (const [, userName] of seed.matchAll(/userName: '([^']+)'/g)) expect(readme).toContain(`\`${userName}\``);
  // The other way in: the first administrator from the command line.
  expect(readme).toMatch(/npm run user -- add .*--role ADMIN/);
});
