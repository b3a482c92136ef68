// The documents' lists, held to the code they describe, so that they cannot drift: the folder
// map of docs/architecture.md to the folders that exist, its request flow to the numbered steps
// of createApp (server/app.ts, docs/decisions/046), the configuration tables of docs/operating.md
// to the config schema (server/base/config.ts), and architecture.md to a newcomer's length.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from '../scripts/build-state.ts';

const ARCHITECTURE_MAX_BYTES = 25_000;

/** The folders whose every sub-folder the map must list (one level down). */
const MAPPED_ROOTS = ['server', 'client', 'shared', 'scripts', 'test'];

/** Variables the configuration tables explain that the site's schema does not read, each with who does. */
const READ_ELSEWHERE: Record<string, string> = {
  // Node's own: the built server's entry hands it to module.enableCompileCache (scripts/build.ts).
  NODE_COMPILE_CACHE: 'Node',
};

function read(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8');
}

/** A `## ` section of a Markdown text, up to the next `## ` heading. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`no section "## ${heading}"`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/** The folders the map names: its list items that start with a folder in code, `- \`server/boot/\` — …`. */
function mapFolders(markdown: string): string[] {
  return [...section(markdown, 'Folder map').matchAll(/^- `([^`\s]+)\/`/gm)].map((match) => match[1]!);
}

function subfolders(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => (folder === '.' ? entry.name : `${folder}/${entry.name}`));
}

/** The repository's own top-level folders: not .git, nor what .gitignore keeps out of it. */
function repositoryFolders(): string[] {
  const ignored = new Set(
    read('.gitignore')
      .split('\n')
      .map((line) => line.trim().replace(/^\/|\/$/g, ''))
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
  return subfolders('.').filter((name) => name !== '.git' && !ignored.has(name));
}

type Step = { number: string; text: string };

/** The numbered step comments of createApp (`// 4.`, `// 4b.`, `// -1.`), each with the code under it. */
function pipelineSteps(source: string): Step[] {
  const start = source.indexOf('export async function createApp');
  const body = source.slice(start, source.indexOf('\n  return {', start));
  const steps: Step[] = [];
  for (const line of body.split('\n')) {
    const step = /^\s*\/\/ (-?\d+[a-z]?)\. /.exec(line);
    if (step) steps.push({ number: step[1]!, text: '' });
    else if (steps.length > 0 && !/^\s*\/\//.test(line)) steps[steps.length - 1]!.text += `${line}\n`;
  }
  return steps;
}

/** The request flow's list items, `- **4b.** …` with their continuation lines. */
function docSteps(markdown: string): Step[] {
  const steps: Step[] = [];
  for (const line of section(markdown, 'How a request flows').split('\n')) {
    const step = /^- \*\*(-?\d+[a-z]?)\.\*\* (.*)$/.exec(line);
    if (step) steps.push({ number: step[1]!, text: step[2]! });
    else if (steps.length > 0 && /^ {2}\S/.test(line)) steps[steps.length - 1]!.text += ` ${line.trim()}`;
    else if (steps.length > 0 && line.trim() !== '') break;
  }
  return steps;
}

/** Words too common in the pipeline's code to tell one step from another. */
const COMMON = new Set([
  'req',
  'res',
  'http',
  'config',
  'base',
  'join',
  'paths',
  'path',
  'pages',
  'const',
  'route',
  'routes',
  'filter',
  'includes',
]);

/** What a step's code names — identifiers and path words of 3 letters or more (`api`) — in lower case. */
function keyWords(code: string): Set<string> {
  const words = [...code.replace(/\bapp\.(use|get|post)\b/g, '').matchAll(/[A-Za-z][A-Za-z0-9]*/g)].map((match) => match[0].toLowerCase());
  return new Set(words.filter((word) => word.length >= 3 && !COMMON.has(word)));
}

function squeezed(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The variables the configuration schema reads: the keys of `const schema = z.object({ … })`. */
function schemaVariables(source: string): string[] {
  const start = source.indexOf('const schema = z.object({');
  const body = source.slice(start, source.indexOf('\n});', start));
  return [...body.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((match) => match[1]!);
}

/** The variables the configuration tables name: the first cell of each row (one or several, in code). */
function configurationTableVariables(markdown: string): string[] {
  const configuration = section(markdown, 'Configuration');
  // The tools' own variables (bench, Lighthouse, CI) are not the site's configuration.
  const site = configuration.slice(0, configuration.indexOf('\n### Variables of the tools'));
  return site
    .split('\n')
    .filter((line) => /^\| `/.test(line))
    .flatMap((line) => [...line.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]*)/g)].map((match) => match[1]!));
}

const architecture = read('docs/architecture.md');

test('the folder map lists every folder of the repository and of server/, client/, shared/, scripts/ and test/', () => {
  const mapped = new Set(mapFolders(architecture));
  const folders = [...repositoryFolders(), ...MAPPED_ROOTS.flatMap(subfolders)];
  expect(folders.filter((folder) => !mapped.has(folder))).toEqual([]);
});

test('every folder the folder map names exists', () => {
  const folders = mapFolders(architecture);
  expect(folders.length).toBeGreaterThan(MAPPED_ROOTS.length);
  const missing = folders.filter((folder) => !existsSync(join(ROOT, folder)) || !statSync(join(ROOT, folder)).isDirectory());
  expect(missing).toEqual([]);
});

test("the request flow lists createApp's numbered steps (server/app.ts), in their order", () => {
  const code = pipelineSteps(read('server/app.ts'));
  expect(code.length).toBeGreaterThan(10);
  expect(docSteps(architecture).map((step) => step.number)).toEqual(code.map((step) => step.number));
});

test('each step of the request flow names something its step of createApp mounts', () => {
  const code = new Map(pipelineSteps(read('server/app.ts')).map((step) => [step.number, keyWords(step.text)]));
  const unnamed = docSteps(architecture)
    .filter((step) => {
      const words = code.get(step.number);
      return words !== undefined && ![...words].some((word) => squeezed(step.text).includes(word));
    })
    .map((step) => `${step.number}: none of ${[...code.get(step.number)!].join(', ')}`);
  expect(unnamed).toEqual([]);
});

test('the readers of app.ts and of the request flow find steps, letters and continuation lines', () => {
  const source = [
    'export async function createApp() {',
    '  // -1. First.',
    '  app.use(first());',
    '  // 4b. Then,',
    '  //     on two lines.',
    '  app.use(second);',
    '  return {',
  ].join('\n');
  expect(pipelineSteps(source)).toEqual([
    { number: '-1', text: '  app.use(first());\n' },
    { number: '4b', text: '  app.use(second);\n' },
  ]);
  const doc = '# A\n\n## How a request flows\n\nText.\n\n- **-1.** First\n  and more.\n- **4b.** Then.\n\nAfter.\n\n- **9.** Not a step.\n';
  expect(docSteps(doc)).toEqual([
    { number: '-1', text: 'First and more.' },
    { number: '4b', text: 'Then.' },
  ]);
  expect(keyWords('app.use(requestContext({ logger }));')).toEqual(new Set(['requestcontext', 'logger']));
  expect(squeezed('The request context (`server/http/request-context.ts`)')).toContain('requestcontext');
});

test('the configuration tables of docs/operating.md name every variable of the config schema, and only those', () => {
  const schema = schemaVariables(read('server/base/config.ts'));
  const documented = configurationTableVariables(read('docs/operating.md'));
  expect(schema.length).toBeGreaterThan(50);
  expect(schema.filter((name) => !documented.includes(name))).toEqual([]);
  expect(documented.filter((name) => !schema.includes(name) && !(name in READ_ELSEWHERE))).toEqual([]);
});

test(`docs/architecture.md is at most ${ARCHITECTURE_MAX_BYTES} bytes: a map, not a second copy of the code`, () => {
  expect(Buffer.byteLength(architecture)).toBeLessThanOrEqual(ARCHITECTURE_MAX_BYTES);
});
