// A newcomer on an old Node gets a sentence that says what to do, not ERR_UNKNOWN_FILE_EXTENSION:
// every npm script that runs TypeScript first runs scripts/check-node.mjs (plain JavaScript).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
// @ts-expect-error: a plain .mjs module without types, on purpose (it must run on any Node)
import { nodeVersionProblem } from '../scripts/check-node.mjs';
import { scaled } from './helpers/time-scale.ts';

const ROOT = join(import.meta.dirname, '..');
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

test.each([
  ['20.20.2', true],
  ['v22.11.0', true],
  ['18.0.0', true],
  ['22.12.0', false],
  ['v22.13.1', false],
  ['24.21.0', false],
  ['25.0.0', false],
])('Node %s is refused: %s', (version, refused) => {
  const problem = nodeVersionProblem(version) as string | null;
  if (refused) {
    expect(problem).toContain(`Node.js >= 22.12 is needed (you have v${version.replace(/^v/, '')})`);
    expect(problem).toContain('node@24');
  } else expect(problem).toBeNull();
});

test('every npm script that runs TypeScript checks the Node version first', () => {
  const runsTypeScript = Object.entries(scripts).filter(
    ([name, command]) => !name.startsWith('pre') && /scripts\/\S+\.ts|^vitest\b/.test(command),
  );
  expect(runsTypeScript.map(([name]) => name)).toEqual(
    expect.arrayContaining(['start', 'build', 'dev', 'test', 'user', 'seed:demo', 'bench']),
  );
  for (const [name] of runsTypeScript) expect(scripts[`pre${name}`], `pre${name}`).toBe('node scripts/check-node.mjs');
});

// The machine's own Node (Debian's, v20 here) is exactly the old Node a newcomer has; on a machine
// without one there is nothing older to try, and the table above still holds the rule.
const oldNode = ['/usr/bin/node', '/usr/local/bin/node'].find(
  (path) => existsSync(path) && nodeVersionProblem(execFileSync(path, ['--version'], { encoding: 'utf8' }).trim()) !== null,
);

test.runIf(oldNode)('npm start on an old Node says which version is needed instead of ERR_UNKNOWN_FILE_EXTENSION', () => {
  const result = spawnSync('npm', ['start'], {
    cwd: ROOT,
    env: { ...process.env, PATH: `${join(oldNode!, '..')}:${process.env.PATH}`, npm_config_nodedir: '' },
    encoding: 'utf8',
    timeout: scaled(30_000),
  });
  expect(result.status).not.toBe(0);
  expect(result.stderr).toMatch(/Node\.js >= 22\.12 is needed \(you have v\d+\./);
  expect(result.stderr).not.toContain('ERR_UNKNOWN_FILE_EXTENSION');
});
